#!/usr/bin/env python3
# Reference host written the way Chrome's native-messaging documentation
# example works (struct-packed length, sys.stdin.buffer, json.loads /
# json.dumps, flush per message): what many users run today. It answers the
# same requests as extension-bridge-host from the same suite folder
# (EXTENSION_BRIDGE_CONTAINER), re-reading suite.json per request.
import json
import os
import struct
import sys
import time
import uuid

CONTAINER = os.environ.get("EXTENSION_BRIDGE_CONTAINER", ".")


def getMessage():
    rawLength = sys.stdin.buffer.read(4)
    if len(rawLength) == 0:
        sys.exit(0)
    messageLength = struct.unpack('@I', rawLength)[0]
    message = sys.stdin.buffer.read(messageLength).decode('utf-8')
    return json.loads(message)


def encodeMessage(messageContent):
    encodedContent = json.dumps(messageContent, separators=(',', ':')).encode('utf-8')
    encodedLength = struct.pack('@I', len(encodedContent))
    return {'length': encodedLength, 'content': encodedContent}


def sendMessage(encodedMessage):
    sys.stdout.buffer.write(encodedMessage['length'])
    sys.stdout.buffer.write(encodedMessage['content'])
    sys.stdout.buffer.flush()


def suiteValues():
    try:
        with open(os.path.join(CONTAINER, "suite.json"), "rb") as f:
            return json.load(f).get("values", {})
    except FileNotFoundError:
        return {}


def settings(values):
    enabled = values.get("extensionEnabled")
    theme = values.get("extensionTheme")
    return {"enabled": enabled if isinstance(enabled, bool) else False,
            "theme": theme if isinstance(theme, str) else "auto"}


def handle(message):
    action = message.get("action")
    if action == "getSettings":
        return {"status": "success", "settings": settings(suiteValues())}
    if action == "getContent":
        values = suiteValues()
        vocab = values.get("vocabulary")
        vocab = {k: v for k, v in vocab.items() if isinstance(v, str)} if isinstance(vocab, dict) else {}
        return {"status": "success", "url": message.get("url"), "enabled": settings(values)["enabled"],
                "rules": {"vocabulary": vocab}, "items": []}
    if action == "saveContent":
        queue = os.path.join(CONTAINER, "queue")
        os.makedirs(queue, exist_ok=True)
        item_id = "%d-%s" % (int(time.time() * 1000), uuid.uuid4().hex[:8])
        with open(os.path.join(queue, item_id + ".json"), "w") as f:
            json.dump({"formatVersion": 1, "id": item_id, "url": message.get("url"),
                       "title": message.get("title"), "content": message.get("content")}, f)
        return {"status": "success", "message": "Content saved", "itemId": item_id}
    return {"status": "error", "code": "unknown_action", "message": "Unknown action: %s" % action}


while True:
    receivedMessage = getMessage()
    sendMessage(encodeMessage(handle(receivedMessage)))

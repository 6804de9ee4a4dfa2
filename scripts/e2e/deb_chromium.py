#!/usr/bin/env python3
"""A real Chromium, fresh profile, the PACKAGED extension, reaching the PACKAGED host through the
system manifest (/etc/chromium/native-messaging-hosts): used by scripts/e2e/deb-test.sh.

    deb_chromium.py HOME ARTIFACTS_DIR

HOME is a fresh home folder in which `extension-bridge enable` was run: the reply to getSettings
must say enabled, which proves the host read the same suite as /usr/bin/extension-bridge.
Prints `ok ...` lines; exits 1 on failure.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from browsers import Chromium  # noqa: E402

EXTENSION = Path("/usr/share/extension-bridge/extension")
IDS = json.loads((EXTENSION / "extension-id.json").read_text())

ASK = """new Promise((resolve) => chrome.runtime.sendNativeMessage(%s, %s, (reply) =>
  resolve(reply || {transportError: chrome.runtime.lastError && chrome.runtime.lastError.message})))"""


def main() -> int:
    home, artifacts = Path(sys.argv[1]), Path(sys.argv[2])
    env = dict(os.environ, HOME=str(home))
    profile = Path(tempfile.mkdtemp(prefix="deb-chromium-profile-"))
    with Chromium(EXTENSION, artifacts, user_data_dir=profile, env=env) as browser:
        eid = browser.wait_for_extension()
        if eid != IDS["chromium"]:
            print(f"FAIL the packaged extension loaded as {eid}, not {IDS['chromium']}")
            return 1
        if any(browser.native_hosts_dir.glob("*.json")):
            print("FAIL the profile has host manifests of its own; the test must use the system one")
            return 1
        # The popup is an extension page: it has the runtime API, and it shows the connection too.
        popup = browser.open_extension_page("popup/popup.html")
        state = popup.wait_for("(() => { const ok = document.querySelector('#host-status .ok');"
                               " return ok ? ok.textContent : null })()", timeout=30)
        print(f"ok   the packaged popup says: {state}")
        host = json.dumps(IDS["hostName"])
        hello = popup.evaluate(ASK % (host, json.dumps({"action": "hello", "id": "deb"})))
        if not (isinstance(hello, dict) and hello.get("status") == "success"):
            print(f"FAIL hello through /etc/chromium/native-messaging-hosts: {hello}")
            return 1
        print(f"ok   the packaged extension reached the packaged host: hello -> host {hello.get('hostVersion')}")
        settings = popup.evaluate(ASK % (host, json.dumps({"action": "getSettings"})))
        if not (isinstance(settings, dict) and (settings.get("settings") or {}).get("enabled") is True):
            print(f"FAIL getSettings does not show what /usr/bin/extension-bridge enable wrote: {settings}")
            return 1
        print("ok   getSettings shows the suite /usr/bin/extension-bridge wrote")
    return 0


if __name__ == "__main__":
    sys.exit(main())

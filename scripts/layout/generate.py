#!/usr/bin/env python3
"""Writes scripts/layout/extension-bridge-host.order: the functions a one-shot
host runs, so the release link can place them side by side.

Why: a one-shot host lives for about a millisecond, and on a virtual machine
each first touch of a 64 KiB window of code is a page fault of several
microseconds. Linked in the default order, the code a request runs is spread
over ~55 windows of a 6 MB text; placed together, over ~38 (docs/BENCHMARKS.md).

How: runs the release host (built with -function-sections, no layout) under
valgrind's callgrind for each kind of request, collects the addresses of every
instruction executed, maps them to symbols with nm, and writes one
`.text.<symbol>` line per function, in address order, for gold's
--section-ordering-file. Names that no longer exist are ignored by the linker,
so a stale file only loses some of its effect; regenerate it after large
changes with `scripts/layout/generate.sh`.
"""
import bisect
import json
import os
import struct
import subprocess
import sys
import tempfile

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
host = sys.argv[1]
out_path = os.path.join(root, "scripts", "layout", "extension-bridge-host.order")
caller = "chrome-extension://layout/"

tmp = tempfile.mkdtemp(prefix="eb-layout-")
container = os.path.join(tmp, "container")
os.makedirs(container)
values = {"extensionEnabled": True, "extensionTheme": "dark", "user_defaults_suite_enabled": True,
          "lastSync": {"$date": "2026-11-29T18:57:02.123Z"}, "token": {"$data": "AAEC"}, "count": 42,
          "ratio": 2.5, "tags": ["a", "b"],
          "vocabulary": {"word%04d" % i: "woord%04d" % i for i in range(1000)}}
with open(os.path.join(container, "suite.json"), "w") as f:
    json.dump({"formatVersion": 1, "values": values}, f, indent=2, sort_keys=True)

requests = [
    [{"action": "getSettings"}],
    [{"action": "getContent", "url": "https://example.org/a", "id": 1}],
    [{"action": "getPageState", "id": 1}],
    [{"action": "saveContent", "url": "https://example.org/a", "title": "t", "content": "x" * 100}],
    [{"action": "hello", "id": "h"}, {"action": "getSettings", "id": 2}, {"action": "queueCount"}],
    [{"message": "request:enabled_status"}],
    [{"action": "nope"}],
    [{"action": "setSettings", "settings": {"theme": "light"}}],
]
addresses = set()
env = dict(os.environ, EXTENSION_BRIDGE_ALLOWED_CALLERS=caller, EXTENSION_BRIDGE_CONTAINER=container)
for i, frames in enumerate(requests + [None]):
    data = b""
    for obj in frames or []:
        body = json.dumps(obj).encode()
        data += struct.pack("@I", len(body)) + body
    if frames is None:
        data = struct.pack("@I", 3) + b"{x}"  # a malformed frame
    profile = os.path.join(tmp, "callgrind.%d" % i)
    subprocess.run(["valgrind", "--tool=callgrind", "--dump-instr=yes", "--compress-pos=no",
                    "--compress-strings=no", "--callgrind-out-file=" + profile, host, caller],
                   input=data, env=env, capture_output=True, check=True)
    with open(profile) as f:
        for line in f:
            if line.startswith("0x"):
                addresses.add(int(line.split()[0], 16))

symbols = []
for line in subprocess.run(["nm", "-n", host], capture_output=True, text=True, check=True).stdout.splitlines():
    parts = line.split()
    if len(parts) >= 3 and parts[1] in "tTwW":
        symbols.append((int(parts[0], 16), parts[2]))
starts = [s[0] for s in symbols]
names = []
seen = set()
for a in sorted(addresses):
    i = bisect.bisect_right(starts, a) - 1
    if i >= 0 and symbols[i][1] not in seen:
        seen.add(symbols[i][1])
        names.append(symbols[i][1])
with open(out_path, "w") as f:
    f.writelines(".text.%s\n" % n for n in names)
print("layout: %d functions from %d requests -> %s" % (len(names), len(requests) + 1, out_path))

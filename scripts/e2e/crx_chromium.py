#!/usr/bin/env python3
"""Chromium as a user starts it, on the profile scripts/install.sh installed into: used by
scripts/e2e/install-test.sh.

    crx_chromium.py present HOME ARTIFACTS   prints the extension's id on the last line
    crx_chromium.py absent HOME ARTIFACTS

Starts real headless Chromium on HOME/.config/chromium (a normal user's profile folder) with HOME
set, and WITHOUT --load-extension: the extension must come from what `install --crx` wrote
(External Extensions -> the CRX). `present` waits for its service worker, checks Chromium records
an external install (Preferences: extensions.settings.<id>.location 2, enabled) and that a page is
rewritten from the suite (HOME's suite enabled, holding {blue: blauw}: the host reached through
~/.config/chromium/NativeMessagingHosts). `absent` checks no extension runs and the page is left
alone. Prints `ok ...` lines; exits 1 on failure.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from browsers import ExternalChromium, TestServer, wait_until  # noqa: E402

EXTERNAL_PREF = 2  # Chromium's ManifestLocation for an External Extensions file
PAGE = "<!doctype html><meta charset=utf-8><title>crx</title><p id=t>The sky is blue.</p>\n"
TEXT_JS = "document.getElementById('t') && document.getElementById('t').textContent"


def settings(udd: Path, eid: str):
    try:
        prefs = json.loads((udd / "Default" / "Preferences").read_text())
    except (OSError, json.JSONDecodeError):
        return None
    return prefs.get("extensions", {}).get("settings", {}).get(eid)


def main() -> int:
    if len(sys.argv) != 4 or sys.argv[1] not in ("present", "absent"):
        print(__doc__, file=sys.stderr)
        return 64
    want, home, artifacts = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
    udd = home / ".config" / "chromium"
    site = Path(tempfile.mkdtemp(prefix="crx-site-"))
    (site / "index.html").write_text(PAGE)
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    with TestServer(site) as server, ExternalChromium(None, artifacts, user_data_dir=udd, env=env) as browser:
        if want == "absent":
            tab = browser.new_tab(server.url("index.html"))
            time.sleep(3)
            workers = [t["url"] for t in browser.targets() if t["type"] == "service_worker"]
            text = tab.evaluate(TEXT_JS)
            if workers or text != "The sky is blue.":
                print(f"FAIL after uninstall: service workers {workers}, page {text!r}")
                return 1
            print("ok   after uninstall Chromium runs no extension and leaves the page alone")
            return 0
        eid = browser.wait_for_extension(timeout=90)
        entry = wait_until(lambda: settings(udd, eid), 30, f"extensions.settings.{eid} in Preferences", 0.5)
        if entry.get("location") != EXTERNAL_PREF or entry.get("disable_reasons"):
            print(f"FAIL {eid}: location {entry.get('location')}, disable_reasons {entry.get('disable_reasons')}")
            return 1
        print(f"ok   Chromium installed the CRX from External Extensions: {eid}, enabled, no --load-extension")
        tab = browser.new_tab(server.url("index.html"))
        tab.wait_for(f"{TEXT_JS} === 'The sky is blauw.'", timeout=30)
        print("ok   the page is rewritten from the suite")
        print(eid)
    return 0


if __name__ == "__main__":
    sys.exit(main())

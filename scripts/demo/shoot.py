#!/usr/bin/env python3
"""Screenshots for docs/images, driven by scripts/demo.sh (which builds and installs first).

    shoot.py --cli BIN/extension-bridge --profile DIR --out docs/images [--extension DIR]

Environment: EXTENSION_BRIDGE_CONTAINER and HOME as set by demo.sh (the browser passes them on to
the host). Uses scripts/e2e/browsers.py (Chromium over the DevTools pipe: standard library only).
"""

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(REPO / "scripts" / "e2e"))

from browsers import Chromium, TestServer  # noqa: E402


def cli(binary: str, *args: str) -> None:
    print("$ extension-bridge " + " ".join(args), flush=True)
    subprocess.run([binary, *args], check=True)


def viewport(tab, width: int, height: int) -> None:
    tab.send("Emulation.setDeviceMetricsOverride",
             {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--profile", required=True)
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--logs", required=True, type=Path)
    ap.add_argument("--extension", default=str(REPO / "extension"))
    a = ap.parse_args()
    a.out.mkdir(parents=True, exist_ok=True)
    ids = json.loads((Path(a.extension) / "extension-id.json").read_text())

    with TestServer(HERE) as site, Chromium(a.extension, a.logs, user_data_dir=a.profile, env=dict(os.environ)) as c:
        eid = c.wait_for_extension()
        if eid != ids["chromium"]:
            raise SystemExit(f"demo: extension ID {eid} != {ids['chromium']}")
        tab = c.new_tab("about:blank")
        viewport(tab, 860, 520)
        tab.navigate(site.url("page.html"))
        # The content script has asked and been told "disabled" (asked again from its own world).
        reply = tab.content_script_eval("chrome.runtime.sendMessage({type: 'content_request:enabled'})")
        if reply != {"background_response:enabled": False}:
            raise SystemExit(f"demo: expected the extension to be disabled, got {reply}")
        time.sleep(0.5)
        print("before:", tab.screenshot(a.out / "demo-before.png"), flush=True)

        cli(a.cli, "write", "vocabulary", "-dict", "blue", "blauw", "red", "rood")
        cli(a.cli, "write", "extensionEnabled", "-bool", "true")
        tab.navigate(site.url("page.html"))
        tab.wait_for("document.querySelector('h1').textContent === 'Blauw skies and rood roofs'"
                     " && document.body.innerText.includes('a rood bicycle')", timeout=30)
        time.sleep(0.3)
        print("after: ", tab.screenshot(a.out / "demo-after.png"), flush=True)

        popup = c.open_extension_page("popup/popup.html")
        viewport(popup, 420, 480)
        popup.wait_for("!!document.querySelector('#host-status .ok') && "
                       "document.getElementById('enabled').checked && "
                       "/^\\d+$/.test(document.getElementById('queue-count').textContent)", timeout=30)
        height = popup.evaluate("Math.ceil(document.documentElement.getBoundingClientRect().height)")
        viewport(popup, 420, max(200, min(int(height), 900)))
        time.sleep(0.3)
        print("popup: ", popup.screenshot(a.out / "popup.png"), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

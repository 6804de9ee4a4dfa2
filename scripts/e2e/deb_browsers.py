#!/usr/bin/env python3
"""The Debian package's extension in real browsers, installed by the PACKAGE (never by this test's
own --load-extension or a temporary add-on): used by scripts/e2e/deb-test.sh.

    deb_browsers.py prepare-firefox PROFILE HOME ARTIFACTS
        before `dpkg -i`: create a Firefox ESR profile and start it once, so the install meets a
        profile that existed before it (the case that needs /etc/firefox-esr/extension-bridge.js).
    deb_browsers.py installed PROFILE HOME ARTIFACTS
        after `dpkg -i`, with HOME's suite enabled and holding {blue: blauw}: Chromium started
        through Debian's /usr/bin/chromium wrapper with a fresh profile, and Firefox ESR on the
        profile made before the install, each rewrite a page on their FIRST start; in Chromium the
        packaged popup reaches the packaged host (hello, getSettings).
    deb_browsers.py app PROFILE HOME ARTIFACTS
        with a bridge made by `new` packaged and installed beside ours (DEB_APP_CHROMIUM_ID, DEB_APP_HOST):
        Chromium through /usr/bin/chromium has both extensions, the page shows both groups' words,
        and the app's host the browser started is the packaged static one under /usr/lib.
    deb_browsers.py removed PROFILE HOME ARTIFACTS
        after `dpkg -r`: neither browser has the extension any more, and the page is left alone.

Prints `ok ...` lines; exits 1 on the first failure.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from browsers import Chromium, Firefox, TestServer, wait_until  # noqa: E402

EXTENSION = Path("/usr/share/extension-bridge/extension")
IDS = json.loads((Path(__file__).resolve().parents[2] / "extension" / "extension-id.json").read_text())
WRAPPER = "/usr/bin/chromium"
PAGE = "<!doctype html><meta charset=utf-8><title>deb</title><p id=t>The sky is blue.</p>\n"
ORIGINAL = "The sky is blue."
REWRITTEN = "The sky is blauw."
TEXT_JS = "document.getElementById('t') && document.getElementById('t').textContent"
# A user's Firefox, not an automated one: signatures stay required (the harness turns the check
# off for temporary add-ons), and the add-on scopes are the browser's own defaults. Marionette's
# "recommended preferences" set extensions.enabledScopes to 5 (profile and application only) and
# autoDisableScopes to 0 unless the profile sets them, which would hide the system scope and so
# the very route under test; 15 is Firefox's default and 3 Debian's (firefox.js).
FIREFOX_PREFS = {
    "xpinstall.signatures.required": True,
    "extensions.enabledScopes": 15,
    "extensions.autoDisableScopes": 3,
}
SCOPE_SYSTEM = 8  # AddonManager.SCOPE_SYSTEM: /usr/share/mozilla/extensions
ASK = """new Promise((resolve) => chrome.runtime.sendNativeMessage(%s, %s, (reply) =>
  resolve(reply || {transportError: chrome.runtime.lastError && chrome.runtime.lastError.message})))"""


class Failure(Exception):
    pass


def site_dir() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="deb-site-"))
    (folder / "index.html").write_text(PAGE)
    return folder


def firefox(profile: Path, home: Path, artifacts: Path) -> Firefox:
    return Firefox(None, artifacts, addon_id=IDS["firefox"], profile_dir=profile, home_dir=home,
                   prefs=FIREFOX_PREFS)


def firefox_addon(browser: Firefox) -> dict | None:
    """What Firefox's add-on manager says of our add-on, or None when it does not know it."""
    return browser.chrome_eval("""
        const {AddonManager} = ChromeUtils.importESModule("resource://gre/modules/AddonManager.sys.mjs");
        return AddonManager.getAddonByID(arguments[0]).then((a) => a && {
            active: a.isActive, scope: a.scope, signed: a.signedState});""",
                              (IDS["firefox"],))


def prepare_firefox(profile: Path, home: Path, artifacts: Path) -> None:
    with firefox(profile, home, artifacts) as browser:
        if firefox_addon(browser):
            raise Failure("Firefox knows the add-on before the package is installed")
    print(f"ok   Firefox profile {profile} created and started once, before the install")


def installed(profile: Path, home: Path, artifacts: Path) -> None:
    with TestServer(site_dir()) as site:
        udd = Path(tempfile.mkdtemp(prefix="deb-chromium-"))
        with Chromium(None, artifacts / "chromium", user_data_dir=udd, binary=WRAPPER,
                      env={"HOME": str(home), "PATH": "/usr/bin:/bin"}) as browser:
            eid = browser.wait_for_extension()
            if eid != IDS["chromium"]:
                raise Failure(f"/usr/bin/chromium loaded the packaged extension as {eid}, not {IDS['chromium']}")
            print(f"ok   Chromium through {WRAPPER}, fresh profile: the packaged extension is there ({eid})")
            if any(browser.native_hosts_dir.glob("*.json")):
                raise Failure("the profile has host manifests of its own; the test must use the system one")
            tab = browser.new_tab(site.url("index.html"))
            tab.wait_for(f"{TEXT_JS} === {json.dumps(REWRITTEN)}", timeout=30)
            print("ok   Chromium, first start: the page is rewritten from the suite")
            popup = browser.open_extension_page("popup/popup.html")
            host = json.dumps(IDS["hostName"])
            hello = popup.evaluate(ASK % (host, json.dumps({"action": "hello", "id": "deb"})))
            if not (isinstance(hello, dict) and hello.get("status") == "success"):
                raise Failure(f"hello through /etc/chromium/native-messaging-hosts: {hello}")
            settings = popup.evaluate(ASK % (host, json.dumps({"action": "getSettings"})))
            if not (isinstance(settings, dict) and (settings.get("settings") or {}).get("enabled") is True):
                raise Failure(f"getSettings does not show what /usr/bin/extension-bridge wrote: {settings}")
            print(f"ok   the packaged popup reaches the packaged host (host {hello.get('hostVersion')})")

        with firefox(profile, home, artifacts / "firefox") as browser:
            addon = firefox_addon(browser)
            if not addon or not addon.get("active"):
                raise Failure(f"Firefox, profile made before the install, first start: add-on {addon}")
            if addon.get("scope") != SCOPE_SYSTEM:
                raise Failure(f"Firefox has the add-on from scope {addon.get('scope')}, not the system folder")
            print(f"ok   Firefox, profile made before the install, first start: the add-on is active ({addon})")
            tab = browser.new_tab(site.url("index.html"))
            tab.wait_for(f"{TEXT_JS} === {json.dumps(REWRITTEN)}", timeout=30)
            print("ok   Firefox, first start: the page is rewritten from the suite (host access granted)")


def host_processes(path: str) -> list:
    """Pids of running processes whose executable is `path`."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if os.readlink(entry / "exe") == path:
                    pids.append(int(entry.name))
            except OSError:
                continue
    return pids


def app(profile: Path, home: Path, artifacts: Path) -> None:
    """A bridge made by `new`, packaged and installed beside ExtensionBridge's own package: Chromium
    through /usr/bin/chromium has both extensions; the page shows both vocabularies (each from its
    own group, through its own host); the app's host the browser started is the packaged static one."""
    app_id, host_path = os.environ["DEB_APP_CHROMIUM_ID"], os.environ["DEB_APP_HOST"]
    with TestServer(site_dir()) as site:
        udd = Path(tempfile.mkdtemp(prefix="deb-app-chromium-"))
        with Chromium(None, artifacts / "chromium-app", user_data_dir=udd, binary=WRAPPER,
                      env={"HOME": str(home), "PATH": "/usr/bin:/bin"}) as browser:
            browser.wait_for_extension(extension_id=app_id)
            browser.wait_for_extension(extension_id=IDS["chromium"])
            print(f"ok   Chromium through {WRAPPER}: the app's extension ({app_id}) beside ExtensionBridge's")
            tab = browser.new_tab(site.url("index.html"))
            tab.wait_for(f"{TEXT_JS} === 'The hemel is blauw.'", timeout=30)
            print("ok   the page is rewritten from both groups: the app's (sky -> hemel) and ours (blue -> blauw)")
            pids = wait_until(lambda: host_processes(host_path), 15, f"a running {host_path}")
            ldd = subprocess.run(["ldd", host_path], capture_output=True, text=True)
            if "not a dynamic executable" not in (ldd.stdout + ldd.stderr) and "statically linked" not in ldd.stdout:
                raise Failure(f"the packaged host needs shared libraries: {ldd.stdout}{ldd.stderr}")
            print(f"ok   the host Chromium started is the packaged {host_path} (pid {pids[0]}), static: "
                  f"{(ldd.stdout + ldd.stderr).strip()}")


def removed(profile: Path, home: Path, artifacts: Path) -> None:
    with TestServer(site_dir()) as site:
        udd = Path(tempfile.mkdtemp(prefix="deb-chromium-"))
        with Chromium(None, artifacts / "chromium-removed", user_data_dir=udd, binary=WRAPPER,
                      env={"HOME": str(home), "PATH": "/usr/bin:/bin"}) as browser:
            tab = browser.new_tab(site.url("index.html"))
            time.sleep(3)
            workers = [t["url"] for t in browser.targets() if t["type"] == "service_worker"]
            text = tab.evaluate(TEXT_JS)
            if workers or text != ORIGINAL:
                raise Failure(f"Chromium after dpkg -r: workers {workers}, page {text!r}")
            print("ok   Chromium after dpkg -r: no extension, the page is left alone")
        with firefox(profile, home, artifacts / "firefox-removed") as browser:
            tab = browser.new_tab(site.url("index.html"))
            time.sleep(3)
            addon = firefox_addon(browser)
            text = tab.evaluate(TEXT_JS)
            if addon or text != ORIGINAL:
                raise Failure(f"Firefox after dpkg -r: add-on {addon}, page {text!r}")
            print("ok   Firefox after dpkg -r: no add-on, the page is left alone")


def main() -> int:
    if len(sys.argv) != 5 or sys.argv[1] not in ("prepare-firefox", "installed", "app", "removed"):
        print(__doc__, file=sys.stderr)
        return 64
    step = {"prepare-firefox": prepare_firefox, "installed": installed, "app": app, "removed": removed}[sys.argv[1]]
    try:
        step(Path(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4]))
    except Exception as exc:  # noqa: BLE001 - every failure is reported the same way
        print(f"FAIL {type(exc).__name__}: {exc}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""doctor sees the add-on in a real Firefox profile, and names withdrawn host access.

Also checks the popup's "no access to websites" notice. scripts/test.sh runs it.

    E2E_PYTHON=$(scripts/e2e/setup.sh | sed -n 's/^E2E_PYTHON=//p')
    swift build && "$E2E_PYTHON" scripts/e2e/doctor_presence.py

The add-on is installed as a normal (unsigned, ESR allows it with
xpinstall.signatures.required=false) add-on, so extensions.json records it: a
temporary add-on is not written there. System scopes are off in this profile so
a system-wide copy on this machine cannot stand in for it.
"""

import json
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from browsers import Firefox, wait_until  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
EXT = REPO / "extension"
ORIGINS = ["http://*/*", "https://*/*"]
PERMS = """const id = arguments[0];
const {ExtensionPermissions} = ChromeUtils.importESModule("resource://gre/modules/ExtensionPermissions.sys.mjs");
return (async () => { await ExtensionPermissions.%s(id, {permissions: [], origins: %s},
  WebExtensionPolicy.getByID(id).extension); return (await ExtensionPermissions.get(id)).origins; })();"""


def bin_dir() -> Path:
    out = subprocess.run(["swift", "build", "--show-bin-path"], cwd=REPO, capture_output=True, text=True, check=True)
    return Path(out.stdout.strip())


def doctor(home: Path) -> list:
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    out = subprocess.run([str(bin_dir() / "extension-bridge"), "doctor", "--browser", "firefox", "--json",
                          "--extension-dir", str(EXT)], env=env, capture_output=True, text=True, cwd=REPO)
    rows = [c for c in json.loads(out.stdout)["checks"] if c["scope"] == "profile"]
    print(f"doctor exit {out.returncode}:", json.dumps(rows, indent=1))
    return rows


def main() -> int:
    work = Path(tempfile.mkdtemp(prefix="doctor-presence-"))
    home, profile, xpi = work / "home", work / "home/.mozilla/firefox/p.default-esr", work / "eb.xpi"
    profile.mkdir(parents=True)
    (home / ".mozilla/firefox/profiles.ini").write_text(
        "[Profile0]\nName=default-esr\nIsRelative=1\nPath=p.default-esr\nDefault=1\n")
    with zipfile.ZipFile(xpi, "w") as z:
        for path in EXT.rglob("*"):
            rel = path.relative_to(EXT)
            if path.is_file() and rel.parts[0] not in ("test", "bench", "tools", "node_modules"):
                z.write(path, str(rel))
    prefs = {"xpinstall.signatures.required": False, "extensions.enabledScopes": 5}
    ff = Firefox(EXT, work / "artifacts", profile_dir=profile, home_dir=work / "ffhome", prefs=prefs)
    with ff:
        from marionette_driver.addons import Addons
        addon = Addons(ff.client).install(str(xpi), temp=False)
        base = wait_until(lambda: ff.chrome_eval(
            "const p = WebExtensionPolicy.getByID(arguments[0]); return p && p.active ? p.getURL('') : null;",
            (addon,)), 60, "the add-on to start")
        granted = ff.chrome_eval(PERMS % ("get", "[]"), (addon,))
        print("granted origins at install:", granted)

        # Popup: no notice while granted.
        tab = ff.new_tab(base + "popup/popup.html")
        tab.wait_for("document.readyState === 'complete'")
        assert tab.evaluate("document.getElementById('host-access').hidden") is True, "notice shown while granted"

        # Firefox writes extension-preferences.json a moment after the grant.
        prefs_file = profile / "extension-preferences.json"
        wait_until(lambda: set(ORIGINS) <= set(json.loads(prefs_file.read_text()).get(addon, {}).get("origins", [])),
                   30, "extension-preferences.json to list the granted origins")
        rows = doctor(home)
        assert len(rows) == 1 and rows[0]["status"] == "ok", rows
        assert "enabled, host access granted" in rows[0]["detail"], rows

        print("withdrawn:", ff.chrome_eval(PERMS % ("remove", json.dumps(ORIGINS)), (addon,)))
        tab.navigate(base + "popup/popup.html")
        tab.wait_for("document.getElementById('host-access').hidden === false")
        text = tab.evaluate("document.querySelector('#host-access .problem-title').textContent")
        assert "no access to websites" in text, text
        # permissions.request for origins only in content_scripts.matches: Firefox lists them as
        # optional (extensions.json optionalPermissions.origins), so the request is valid; headless,
        # the prompt cannot be accepted, so grant as the prompt would and check the notice goes.
        optional = ff.chrome_eval(
            "return WebExtensionPolicy.getByID(arguments[0]).extension.optionalOrigins.patterns.map(p => p.pattern);",
            (addon,))
        print("optional origins:", optional)
        assert set(ORIGINS) <= set(optional), optional
        print("granted again:", ff.chrome_eval(PERMS % ("add", json.dumps(ORIGINS)), (addon,)))
        tab.navigate(base + "popup/popup.html")
        tab.wait_for("document.getElementById('host-access').hidden === true")
        print("withdrawn again:", ff.chrome_eval(PERMS % ("remove", json.dumps(ORIGINS)), (addon,)))
    rows = doctor(home)
    assert len(rows) == 1 and rows[0]["status"] == "warning", rows
    assert "host access not granted: content scripts cannot run" in rows[0]["detail"], rows
    assert "Permissions and allow access to all websites" in rows[0]["fix"], rows
    print("doctor_presence: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())

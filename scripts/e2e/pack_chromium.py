#!/usr/bin/env python3
"""The CRX that `extension-bridge pack` writes, installed by a real Chromium as a per-user
external extension (no --load-extension, no Developer mode).

    pack_chromium.py [ARTIFACTS_DIR]

Packs the bundled extension with a fresh HOME (so the machine key is made on first use),
writes <user-data-dir>/External Extensions/<crx id>.json = {"external_crx": ..., "external_version": ...}
into a fresh profile, starts headless Chromium on it, and checks that the extension's service worker
runs under the CRX's id (the signing key's, not the manifest key's) and that the profile's
Preferences record an external install (extensions.settings.<id>.location 2, EXTERNAL_PREF).
The binaries come from EXTENSION_BRIDGE_BIN_DIR, else .build/debug. Run it with the venv python
that scripts/e2e/setup.sh prints. Prints `ok ...` lines; exits 1 on failure.
"""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from browsers import ExternalChromium, WaitTimeout, wait_until  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
BIN = Path(os.environ.get("EXTENSION_BRIDGE_BIN_DIR", REPO / ".build" / "debug"))
# Chromium's Manifest::Location: 2 is EXTERNAL_PREF, an extension named by an External Extensions file.
EXTERNAL_PREF = 2


def crx_id(crx: bytes) -> str:
    """The id in a CRX3 header's SignedData (field 10000 { crx_id = 1 }), spelled in a-p."""
    if crx[:4] != b"Cr24" or struct.unpack("<I", crx[4:8])[0] != 3:
        raise ValueError("not a CRX3")
    header = crx[12:12 + struct.unpack("<I", crx[8:12])[0]]

    def varint(message: bytes, i: int) -> tuple[int, int]:
        value = shift = 0
        while True:
            byte = message[i]
            i += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                return value, i

    def fields(message: bytes):
        i = 0
        while i < len(message):
            key, i = varint(message, i)
            length, i = varint(message, i)
            yield key >> 3, message[i:i + length]
            i += length

    signed = dict(fields(header))[10000]
    raw = dict(fields(signed))[1]
    return "".join(chr(ord("a") + int(c, 16)) for c in raw.hex())


def extension_settings(udd: Path, eid: str):
    """extensions.settings.<id> from Preferences (or Secure Preferences, where a build keeps them)."""
    for name in ("Preferences", "Secure Preferences"):
        path = udd / "Default" / name
        if path.exists():
            try:
                entry = json.loads(path.read_text()).get("extensions", {}).get("settings", {}).get(eid)
            except json.JSONDecodeError:
                continue  # being rewritten
            if entry:
                return entry
    return None


def main() -> int:
    artifacts = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / ".build" / "e2e-artifacts" / "pack_chromium"
    work = Path(tempfile.mkdtemp(prefix="pack-chromium-"))
    ok = False
    try:
        home = work / "home"
        home.mkdir()
        env = dict(os.environ, HOME=str(home))
        run = subprocess.run(
            [str(BIN / "extension-bridge"), "pack", "--json", "--extension-dir", str(REPO / "extension"),
             "--out", str(work / "dist")],
            env=env, capture_output=True, text=True, timeout=120)
        if run.returncode != 0:
            print(f"FAIL pack exited {run.returncode}: {run.stderr}")
            return 1
        records = [json.loads(line) for line in run.stdout.splitlines()]
        crx = next(r for r in records if r["kind"] == "crx")
        eid, version, crx_path = crx["chromiumID"], crx["version"], Path(crx["path"])
        bundled_id = json.loads((REPO / "extension" / "extension-id.json").read_text())["chromium"]
        if crx_id(crx_path.read_bytes()) != eid:
            print(f"FAIL the CRX header's crx_id is not {eid}")
            return 1
        if eid == bundled_id:
            print(f"FAIL the CRX id {eid} is the manifest key's; a fresh machine key must give another")
            return 1
        print(f"ok   pack wrote {crx_path.name} ({crx_path.stat().st_size} bytes), id {eid} from the machine key")

        udd = work / "udd"
        external = udd / "External Extensions"
        external.mkdir(parents=True)
        (external / f"{eid}.json").write_text(
            json.dumps({"external_crx": str(crx_path.resolve()), "external_version": version}))
        with ExternalChromium(None, artifacts, user_data_dir=udd, env=env) as browser:
            found = browser.wait_for_extension(timeout=90, extension_id=eid)
            print(f"ok   Chromium {browser.version} runs the CRX's service worker as {found}, no --load-extension")
            try:
                entry = wait_until(lambda: extension_settings(udd, eid), 30, f"extensions.settings.{eid}", 0.5)
            except WaitTimeout:
                entry = None  # Preferences are written lazily: read them again after a clean exit
        if entry is None:
            entry = extension_settings(udd, eid)
        if not entry:
            print(f"FAIL {udd}/Default/Preferences has no extensions.settings.{eid}")
            return 1
        location, reasons = entry.get("location"), entry.get("disable_reasons")
        if location != EXTERNAL_PREF:
            print(f"FAIL extensions.settings.{eid}.location is {location}, not {EXTERNAL_PREF} (external pref)")
            return 1
        if reasons:
            print(f"FAIL the external install is disabled: disable_reasons {reasons}")
            return 1
        manifest_version = (entry.get("manifest") or {}).get("version", version)
        print(f"ok   Preferences record an external install: location {location} (EXTERNAL_PREF), "
              f"version {manifest_version}, no disable reasons, from {entry.get('path', '?')}")
        ok = True
        return 0
    finally:
        if ok:
            shutil.rmtree(work, ignore_errors=True)
        else:
            print(f"kept {work} and {artifacts} for a look")


if __name__ == "__main__":
    start = time.monotonic()
    status = main()
    print(f"{'ok' if status == 0 else 'FAIL'} pack_chromium.py in {time.monotonic() - start:.1f} s")
    sys.exit(status)

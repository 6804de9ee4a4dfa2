#!/usr/bin/env python3
"""Extracts seed 002's background.js, content.js and manifest.json byte for byte from the shared seed
text (`../shared/seeds/002_*.txt`, the article as printed), for the Safari import end to end
(scripts/e2e/safari_import.py).

Each file is the text between the line naming it and the article's next step, without the blank lines
around it, plus one final newline: exactly the code the article prints. The seed must keep its shape:
each marker once, in order, and each file with what the test relies on (the native message, the
content script's entry call, a Manifest V3 manifest that parses). Otherwise `SeedShapeError`, and the
test fails rather than test something else.

    seed_files.py SEED_TXT OUT_DIR      # writes the three files; prints their names and sizes
"""
from __future__ import annotations

import json
import sys
from pathlib import Path


class SeedShapeError(Exception):
    pass


# (file, the line that names it, the start of the paragraph after it, text it must contain)
SECTIONS = (
    ("background.js", "background.js", "3. content.js is run every time",
     'browser.runtime.sendNativeMessage({message: "request:enabled_status"}, function(response) {'),
    ("content.js", "content.js", "4. Now we come to the Mediator.",
     "handleContentEnabled();"),
    ("manifest.json", "• Change content_scripts[matches] = [ \"<all_urls>\" ] . This basically allows the content.js "
     "code to run on every URL", "Now let’s compare before the extension", '"permissions": [ "nativeMessaging" ]'),
)


def _index_once(lines: list, text: str, start: int, exact: bool) -> int:
    found = [i for i, line in enumerate(lines) if (line == text if exact else line.startswith(text))]
    if len(found) != 1:
        raise SeedShapeError(f"the seed has {len(found)} lines {'equal to' if exact else 'starting with'} {text!r}, not one")
    if found[0] < start:
        raise SeedShapeError(f"{text!r} is out of order in the seed")
    return found[0]


def extract(seed: bytes) -> dict:
    """{name: bytes} for the three files; raises SeedShapeError when the seed changed shape."""
    text = seed.decode("utf-8")
    if "\r" in text:
        raise SeedShapeError("the seed has carriage returns; it changed shape")
    lines = text.split("\n")
    out = {}
    position = 0
    for name, opener, closer, must in SECTIONS:
        begin = _index_once(lines, opener, position, exact=True) + 1
        end = _index_once(lines, closer, begin, exact=False)
        body = lines[begin:end]
        while body and body[0].strip() == "":
            body.pop(0)
        while body and body[-1].strip() == "":
            body.pop()
        if not body:
            raise SeedShapeError(f"{name}: nothing between {opener!r} and {closer!r}")
        code = "\n".join(body) + "\n"
        if must not in code:
            raise SeedShapeError(f"{name} no longer holds {must!r}")
        out[name] = code.encode("utf-8")
        position = end
    manifest = json.loads(out["manifest.json"])
    if manifest.get("manifest_version") != 3 or manifest.get("background", {}).get("scripts") != ["background.js"] \
            or manifest.get("content_scripts", [{}])[0].get("js") != ["content.js"]:
        raise SeedShapeError(f"manifest.json changed shape: {manifest}")
    if not out["content.js"].rstrip().endswith(b"handleContentEnabled();"):
        raise SeedShapeError("content.js no longer ends with its entry call")
    return out


def seed_path(repo: Path) -> Path:
    found = sorted((repo.parent / "shared" / "seeds").glob("002_*.txt"))
    if not found:
        found = sorted((Path("/work/shared/seeds")).glob("002_*.txt"))
    if len(found) != 1:
        raise SeedShapeError(f"expected one seed 002 file, found {[str(p) for p in found]}")
    return found[0]


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 64
    files = extract(Path(sys.argv[1]).read_bytes())
    out = Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (out / name).write_bytes(data)
        print(f"{name} {len(data)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Draws the ExtensionBridge icon (a white bridge on a blue rounded square)
and writes icons/icon-{16,32,48,128}.png.

Python standard library only: shapes are signed-distance tests, sampled 4x4
per pixel for anti-aliasing, and written as 8-bit RGBA PNG with zlib + struct.
Output is deterministic, so re-running it leaves the committed files unchanged.

Usage: python3 extension/tools/make-icons.py [output-dir]
"""

import math
import struct
import sys
import zlib
from pathlib import Path

SIZES = (16, 32, 48, 128)
SAMPLES = 4  # per axis

BACKGROUND = (31, 111, 235)  # #1f6feb
WATER = (120, 180, 255)
BRIDGE = (255, 255, 255)


def in_rounded_square(x, y, radius=0.2):
    """Unit square [0,1]^2 with rounded corners."""
    cx = min(max(x, radius), 1 - radius)
    cy = min(max(y, radius), 1 - radius)
    return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2 and 0 <= x <= 1 and 0 <= y <= 1


def in_bridge(x, y):
    """Deck, an arch under it, two towers and suspension cables."""
    # deck
    if 0.1 <= x <= 0.9 and 0.56 <= y <= 0.64:
        return True
    # arch: a ring below the deck
    r = math.hypot(x - 0.5, y - 0.98)
    if 0.36 <= r <= 0.44 and y <= 0.86 and 0.14 <= x <= 0.86:
        return True
    # towers
    for tx in (0.27, 0.73):
        if abs(x - tx) <= 0.045 and 0.2 <= y <= 0.86:
            return True
    # main cable: a parabola between the tower tops, dipping to the deck
    if 0.27 <= x <= 0.73:
        t = (x - 0.5) / 0.23
        cable_y = 0.54 - 0.32 * t * t
        if abs(y - cable_y) <= 0.03:
            return True
    # side cables from tower tops down to the deck ends
    for tx, ex in ((0.27, 0.1), (0.73, 0.9)):
        lo, hi = sorted((tx, ex))
        if lo <= x <= hi:
            t = (x - tx) / (ex - tx)
            cable_y = 0.22 + (0.56 - 0.22) * t
            if abs(y - cable_y) <= 0.03:
                return True
    return False


def in_water(x, y):
    return y >= 0.78 and abs(math.sin(x * math.pi * 6) * 0.015 + 0.82 - y) <= 0.02


def pixel(size, px, py):
    """Average colour and coverage of one pixel."""
    acc = [0.0, 0.0, 0.0, 0.0]
    for sy in range(SAMPLES):
        for sx in range(SAMPLES):
            x = (px + (sx + 0.5) / SAMPLES) / size
            y = (py + (sy + 0.5) / SAMPLES) / size
            if not in_rounded_square(x, y):
                continue
            if in_bridge(x, y):
                colour = BRIDGE
            elif size >= 32 and in_water(x, y):
                colour = WATER
            else:
                colour = BACKGROUND
            acc[0] += colour[0]
            acc[1] += colour[1]
            acc[2] += colour[2]
            acc[3] += 1
    n = SAMPLES * SAMPLES
    if acc[3] == 0:
        return (0, 0, 0, 0)
    # colour averaged over covered samples (straight alpha), alpha = coverage
    return (
        round(acc[0] / acc[3]),
        round(acc[1] / acc[3]),
        round(acc[2] / acc[3]),
        round(255 * acc[3] / n),
    )


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def png(size):
    rows = bytearray()
    for py in range(size):
        rows.append(0)  # filter: none
        for px in range(size):
            rows.extend(pixel(size, px, py))
    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(bytes(rows), 9))
        + chunk(b"IEND", b"")
    )


def main(argv):
    out = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parent.parent / "icons"
    out.mkdir(parents=True, exist_ok=True)
    for size in SIZES:
        path = out / f"icon-{size}.png"
        path.write_bytes(png(size))
        print(f"wrote {path} ({size}x{size})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

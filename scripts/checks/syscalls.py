#!/usr/bin/env python3
"""Every system call in one file: BridgeSystem calls libc only through the wrappers of
Sources/BridgeSystem/Internals/Syscalls.swift, imports libc only in its Internals/ files (Syscalls.swift
for the calls, Exports.swift for the types and constants, swift-system's layout), and nothing outside
BridgeSystem imports libc.

Fails (exit 1, one line per finding) when a Swift file of BridgeSystem other than Syscalls.swift
calls one of the wrapped functions by its libc name (`close(fd)` instead of `system_close(fd)`),
when a file of BridgeSystem outside Internals/ (and not in ALLOWED_IMPORTS, each with its reason)
imports Glibc, Musl or Darwin, or when a file under Sources/ outside BridgeSystem imports one.
What counts as a call: the name followed by `(`, not after `.` (a method of ours) or `func `;
`stat()`, `sigaction()` and `flock()` with nothing inside are the C structs' initialisers.
Lines that are comments are skipped. A libc function no wrapper exists for yet is not caught:
add its wrapper, and it is.

Usage: scripts/checks/syscalls.py [REPO_ROOT]   (stdlib only; tests: scripts/checks/test_checks.py)
"""

import os
import re
import sys

import report

SYSCALLS = "Sources/BridgeSystem/Internals/Syscalls.swift"
STRUCTS = {"stat", "sigaction", "flock"}  # `stat()`: the struct's initialiser, not a call
INTERNALS = "Sources/BridgeSystem/Internals/"
# Files of BridgeSystem outside Internals/ that may import libc, each with the reason it cannot use
# Internals/Exports.swift's names. Empty: every file can.
ALLOWED_IMPORTS = {}
LIBC = re.compile(r"^\s*(?:(?:internal|public|private|package)\s+)?import\s+(Glibc|Musl|Darwin)\b")


def wrapped_names(syscalls_text):
    return set(re.findall(r"func system_(\w+)\(", syscalls_text))


def raw_calls(text, names):
    """(line number, name) of each raw call of a wrapped function."""
    found = []
    pattern = re.compile(r"(?<![\w.])(?<!func )(" + "|".join(sorted(names, key=len, reverse=True)) + r")\((\)?)")
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("//"):
            continue
        for match in pattern.finditer(line):
            name, empty = match.groups()
            if empty and name in STRUCTS:
                continue
            found.append((number, name))
    return found


def check(root):
    with open(os.path.join(root, SYSCALLS), encoding="utf-8") as f:
        names = wrapped_names(f.read())
    problems = []
    for dirpath, _, files in os.walk(os.path.join(root, "Sources")):
        for name in sorted(files):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, root)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            if rel.startswith("Sources/BridgeSystem/"):
                if not rel.startswith(INTERNALS) and rel not in ALLOWED_IMPORTS:
                    for number, line in enumerate(text.splitlines(), 1):
                        match = LIBC.match(line)
                        if match:
                            problems.append(
                                f"{rel}:{number}: imports {match.group(1)}; use Internals/Exports.swift's names "
                                "(_O_RDONLY, _stat) and Syscalls.swift's wrappers")
                if rel == SYSCALLS:
                    continue
                for number, call in raw_calls(text, names):
                    problems.append(f"{rel}:{number}: calls {call}() directly; call system_{call}() (Syscalls.swift)")
            else:
                for number, line in enumerate(text.splitlines(), 1):
                    match = LIBC.match(line)
                    if match:
                        problems.append(f"{rel}:{number}: imports {match.group(1)}; libc belongs to BridgeSystem")
    return problems


def main(argv):
    return report.run("syscalls", check, argv, lambda n: f"{n} call(s) around Internals/Syscalls.swift",
                      ("every wrapped system call goes through Internals/Syscalls.swift; libc imported only in"
                      " BridgeSystem/Internals"))


if __name__ == "__main__":
    sys.exit(main(sys.argv))

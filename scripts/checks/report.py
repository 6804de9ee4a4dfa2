"""What every check in scripts/checks does around its own `check(root)`: the repository's root
(the first argument, else two folders up), each problem on stderr after the check's name, a
count and what to do when there are any (exit 1), one line saying what holds when there are
none (exit 0)."""
import os
import sys


def run(name, check, argv, found, holds) -> int:
    """`found(n)`: the count line's words for n problems; `holds`: the line when there are none."""
    root = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    problems = check(root)
    for problem in problems:
        print(f"{name}: {problem}", file=sys.stderr)
    if problems:
        print(f"{name}: {found(len(problems))}", file=sys.stderr)
        return 1
    print(f"{name}: {holds}")
    return 0

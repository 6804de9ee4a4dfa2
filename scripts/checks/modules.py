#!/usr/bin/env python3
"""The module graph, checked: Package.swift, the `import` lines and the floors docs/ARCHITECTURE.md draws.

Fails (exit 1, one line per finding) on:
  - a dependency Package.swift declares that no file of the target imports;
  - an import of one of the package's own targets that Package.swift does not declare;
  - an edge between libraries or executables that does not point down the floors ARCHITECTURE.md draws
    (an edge to the same floor or one above);
  - a drawing that differs from Package.swift: the drawing lists every edge of every library and
    executable, so it cannot go stale.

The floors live in one place, the fenced block after `<!-- module floors -->` in docs/ARCHITECTURE.md:
    floor N  Module ─▶ Dependency, Dependency
             Module ─▶ Dependency
    floor 0  Module, Module (depend on nothing)
Test, fuzz and support targets are not drawn: nothing depends on them but tests; only their imports
are checked against their declarations.

Usage: scripts/checks/modules.py [REPO_ROOT]   (stdlib only; tests: scripts/checks/test_modules.py)
"""

import os
import re
import sys

import report

ARROW = "─▶"
FLOORS_MARK = "<!-- module floors -->"
IMPORT = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|internal|package|private|fileprivate)\s+)?import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?(\w+)")
TARGET_CALL = re.compile(r"\.(target|testTarget|executableTarget)\(")
FUZZ_TUPLE = re.compile(r'\(\s*"(Fuzz\w+)"\s*,\s*\[([^\]]*)\]\s*\)')


class Target:
    def __init__(self, name, kind, dependencies, path):
        self.name, self.kind, self.dependencies, self.path = name, kind, dependencies, path

    def __repr__(self):
        return f"Target({self.name!r}, {self.kind!r}, {self.dependencies!r}, {self.path!r})"


def _call_text(text, start):
    """The text of the call whose `(` is at `start`, up to its matching `)`."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return text[start + 1 : i]
    raise ValueError("unbalanced parentheses in Package.swift")


def _strings(text):
    return re.findall(r'"([^"]*)"', text)


def parse_package(text):
    """The targets Package.swift declares, by name. Comments are dropped first."""
    text = re.sub(r"//[^\n]*", "", text)
    targets = {}
    for match in TARGET_CALL.finditer(text):
        kind = match.group(1)
        body = _call_text(text, match.end() - 1)
        name_match = re.search(r'name:\s*"([^"]+)"', body)
        if not name_match:  # `.target(name: $0)`: a dependency, not a declaration
            continue
        name = name_match.group(1)
        deps_match = re.search(r"dependencies:\s*\[([^\]]*)\]", body)
        path_match = re.search(r'path:\s*"([^"]+)"', body)
        if "\\(" in name:  # the fuzz loop's template call: its targets come from the tuples below
            continue
        dependencies = _strings(deps_match.group(1)) if deps_match else []
        default = ("Tests/" if kind == "testTarget" else "Sources/") + name
        targets[name] = Target(name, kind, dependencies, path_match.group(1) if path_match else default)
    loop = re.search(r"for \(name, dependencies\) in \[(.*?)\n\]", text, re.S)
    if loop:
        extra = _strings(re.search(r'dependencies \+ \[([^\]]*)\]', text).group(1))
        for match in FUZZ_TUPLE.finditer(loop.group(1)):
            name = match.group(1)
            targets[name] = Target(name, "executableTarget", _strings(match.group(2)) + extra, "Fuzz/" + name)
    return targets


def imports_of(swift_text):
    """Module names imported by real import lines, not by lines inside multi-line string literals."""
    found = set()
    in_literal = False
    for line in swift_text.splitlines():
        if line.count('"""') % 2 == 1:
            in_literal = not in_literal
            continue
        if in_literal:
            continue
        match = IMPORT.match(line)
        if match:
            found.add(match.group(1))
    return found


def target_imports(root, target):
    found = set()
    folder = os.path.join(root, target.path)
    for dirpath, _, files in os.walk(folder):
        for name in files:
            if name.endswith(".swift"):
                with open(os.path.join(dirpath, name), encoding="utf-8") as f:
                    found |= imports_of(f.read())
    return found


def parse_floors(markdown):
    """{module: (floor, [dependencies])} from the fenced block after the floors mark."""
    at = markdown.find(FLOORS_MARK)
    if at < 0:
        raise ValueError(f"docs/ARCHITECTURE.md has no {FLOORS_MARK} block")
    block = re.search(r"```\n(.*?)```", markdown[at:], re.S).group(1)
    floors = {}
    floor = None
    for line in block.splitlines():
        if not line.strip():
            continue
        head = re.match(r"floor (\d+)\s+(.*)$", line)
        if head:
            floor, rest = int(head.group(1)), head.group(2)
        elif floor is None:
            raise ValueError(f"a line before the first floor: {line!r}")
        else:
            rest = line.strip()
        rest = re.sub(r"\(.*?\)", "", rest).strip()
        if ARROW in rest:
            module, deps = rest.split(ARROW, 1)
            floors[module.strip()] = (floor, [d.strip() for d in deps.split(",") if d.strip()])
        else:
            for module in rest.split(","):
                if module.strip():
                    floors[module.strip()] = (floor, [])
    return floors


def check(root):
    with open(os.path.join(root, "Package.swift"), encoding="utf-8") as f:
        targets = parse_package(f.read())
    with open(os.path.join(root, "docs/ARCHITECTURE.md"), encoding="utf-8") as f:
        floors = parse_floors(f.read())
    problems = []
    for target in targets.values():
        imported = target_imports(root, target) & set(targets)
        declared = set(target.dependencies)
        for dep in sorted(declared - imported):
            problems.append(f"{target.name}: declares {dep} in Package.swift but no file imports it")
        for dep in sorted(imported - declared - {target.name}):
            problems.append(f"{target.name}: imports {dep}, which Package.swift does not declare")
    drawn = {name for name, t in targets.items() if t.kind != "testTarget" and not t.path.startswith(("Tests/", "Fuzz/"))}
    for name in sorted(drawn - set(floors)):
        problems.append(f"{name}: not on a floor of docs/ARCHITECTURE.md's module drawing")
    for name in sorted(set(floors) - set(targets)):
        problems.append(f"{name}: drawn in docs/ARCHITECTURE.md but not a target of Package.swift")
    for name in sorted(drawn & set(floors)):
        floor, drawn_deps = floors[name]
        declared = targets[name].dependencies
        if sorted(drawn_deps) != sorted(declared):
            problems.append(
                f"{name}: docs/ARCHITECTURE.md draws ─▶ {', '.join(sorted(drawn_deps)) or 'nothing'}, "
                f"Package.swift declares {', '.join(sorted(declared)) or 'nothing'}")
        for dep in declared:
            if dep in floors and floors[dep][0] >= floor:
                problems.append(f"{name} (floor {floor}) ─▶ {dep} (floor {floors[dep][0]}): an edge that does not point down")
    return problems


def main(argv):
    return report.run("modules", check, argv, lambda n: f"{n} problem(s) in the module graph",
                      "Package.swift, the imports and docs/ARCHITECTURE.md's floors agree")


if __name__ == "__main__":
    sys.exit(main(sys.argv))

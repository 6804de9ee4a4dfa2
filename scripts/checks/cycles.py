#!/usr/bin/env python3
"""No file-level cycles inside a module: the files of each Swift module under Sources/ form a graph
with no cycle of more than one file: no file of a cycle can be read, tested or moved without the others,
and each new one is easy to add without noticing (seven had grown before this check existed).

The graph, per module (a folder directly under Sources/, all its .swift files, sub-folders too):
  - A file *declares* each name it introduces at the top level (brace depth 0, outside any type or
    extension): `struct`, `class`, `enum`, `protocol`, `actor`, `typealias`, `func`, `let`, `var`.
    Declarations marked `private` or `fileprivate` are the file's own and are not looked up from
    other files. Names declared inside a type or an extension (members, nested types) are not
    declarations of the file: they are reached through their outer type's name. A file that declares
    a name at any depth uses its own (a nested `Kind` shadows another file's top-level `Kind`).
  - A file A has an edge to a file B of the same module when A, outside its comments and string
    literals (the code inside a string's `\\(…)` interpolation counts), names an identifier that B
    declares and A does not declare itself. That covers both ways of depending on a file:
    `extension T` in A depends on the file declaring T, and any other use of T (a type annotation,
    a call, a conformance) depends on it too.
  - A name declared in more than one file of the module (an overload or a mistake the compiler
    would report) gives an edge to every one of those files.
  - Names from other modules make no edge: modules.py checks the module graph.
Every strongly connected component of more than one file is a finding, unless ALLOWED names
exactly that set of files, with its reason. An ALLOWED entry that no longer matches a component is
a finding too, so the list cannot go stale.

What the scan misses, on purpose: a member added in an extension in file B and used from file C
(`T.member`) is not an edge C→B, since `member` is not a top-level name; the compiler resolves it
and a move of the extension does not change what C names.

Usage: scripts/checks/cycles.py [REPO_ROOT]   (stdlib only; tests: scripts/checks/test_checks.py)
"""

import os
import re
import sys

import report

# Cycles that stay, each the exact set of files (relative to the repository) and why it cannot be
# broken by a move without making the code worse. Keep it short.
ALLOWED = {
    frozenset({
        "Sources/BridgeJSON/EncodedJSON.swift",
        "Sources/BridgeJSON/JSONObjectWriter.swift",
        "Sources/BridgeJSON/JSONWriter.swift",
    }): (
        "the one JSON writer is recursive by construction: JSONWriter writes every object "
        "through JSONObjectWriter, which writes each member's value back through JSONWriter or copies an "
        "EncodedJSON, the writer's own output, which only JSONWriter and JSONObjectWriter make. Splitting them "
        "would bring back a second object writer (replies and rule pages had one, whose bytes could differ "
        "from JSONWriter's)."),
}

DECLARATION = re.compile(
    r"((?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|internal|package|private|fileprivate|open|final|indirect|"
    r"static|nonisolated|override|mutating|convenience|required|dynamic|lazy|weak|unowned|"
    r"private\(set\)|fileprivate\(set\)|internal\(set\)|public\(set\)|package\(set\))\s+)*)"
    r"\b(struct|class|enum|protocol|actor|typealias|func|let|var)\s+(`?)([A-Za-z_]\w*)")
IDENTIFIER = re.compile(r"[A-Za-z_]\w*")


def strip(text):
    """The text with comments removed and string literals' contents blanked, except the code of their
    `\\(…)` interpolations; line breaks are kept. Handles nested block comments, multi-line strings
    and raw strings (`#"…"#`, whose interpolation is `\\#(…)`)."""
    out = []
    i, n = 0, len(text)
    # A stack of what we are inside: ("code", paren depth) or ("string", hashes, multiline).
    stack = [("code", 0)]
    while i < n:
        top = stack[-1]
        c = text[i]
        if top[0] == "code":
            if text.startswith("//", i):
                end = text.find("\n", i)
                i = n if end < 0 else end
                continue
            if text.startswith("/*", i):
                depth, i = 1, i + 2
                while i < n and depth:
                    if text.startswith("/*", i):
                        depth, i = depth + 1, i + 2
                    elif text.startswith("*/", i):
                        depth, i = depth - 1, i + 2
                    else:
                        if text[i] == "\n":
                            out.append("\n")
                        i += 1
                out.append(" ")
                continue
            match = re.compile(r'(#*)("""|")').match(text, i)
            if match and (c == '"' or c == "#"):
                stack.append(("string", len(match.group(1)), match.group(2) == '"""'))
                out.append(" ")
                i = match.end()
                continue
            if c == "(":
                stack[-1] = ("code", top[1] + 1)
            elif c == ")":
                if top[1] == 0 and len(stack) > 1:  # the end of an interpolation
                    stack.pop()
                    out.append(" ")
                    i += 1
                    continue
                stack[-1] = ("code", top[1] - 1)
            out.append(c)
            i += 1
        else:
            _, hashes, multiline = top
            close = ('"""' if multiline else '"') + "#" * hashes
            if text.startswith("\\" + "#" * hashes + "(", i):
                stack.append(("code", 0))
                out.append(" ")
                i += 2 + hashes
                continue
            if text.startswith("\\" + "#" * hashes, i) and hashes == 0:
                i += 2  # an escape: `\"` does not end the string
                continue
            if text.startswith(close, i):
                stack.pop()
                out.append(" ")
                i += len(close)
                continue
            if c == "\n":
                out.append("\n")
            i += 1
    return "".join(out)


def declarations(code):
    """(names other files can use, names only this file sees): the first are the declarations at brace
    depth 0 not marked private or fileprivate; the second the private ones and every name declared
    deeper (members, nested types, locals), which shadow a top-level name of the same spelling."""
    depth_at = []
    depth = 0
    for c in code:
        depth_at.append(depth)
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
    shared, own = set(), set()
    for match in DECLARATION.finditer(code):
        modifiers = match.group(1)
        name = match.group(4)
        if depth_at[match.start(2)] != 0:
            own.add(name)  # a member or nested type: inside its scope, the unqualified name is this one
            continue
        # `case let x`, `if let x`, `for var x` cannot occur at depth 0; a `let`/`var` here is global.
        if re.search(r"\b(private|fileprivate)\b(?!\()", modifiers):
            own.add(name)
        else:
            shared.add(name)
    return shared - own, own


def identifiers(code):
    # `.name` is a member, not a top-level name; `name:` an argument label is still an identifier
    # but matches a declaration only by coincidence of names, which the scan accepts.
    return {m.group(0) for m in IDENTIFIER.finditer(code) if m.start() == 0 or code[m.start() - 1] != "."}


def module_files(root):
    modules = {}
    sources = os.path.join(root, "Sources")
    for module in sorted(os.listdir(sources)):
        folder = os.path.join(sources, module)
        if not os.path.isdir(folder):
            continue
        files = []
        for dirpath, dirnames, names in os.walk(folder):
            dirnames.sort()
            files += [os.path.join(dirpath, name) for name in sorted(names) if name.endswith(".swift")]
        modules[module] = [os.path.relpath(path, root) for path in files]
    return modules


def graph(root, files):
    """{file: {file it depends on: sorted names that make the edge}} for one module's files."""
    code, declared, own = {}, {}, {}
    for rel in files:
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            code[rel] = strip(f.read())
        declared[rel], own[rel] = declarations(code[rel])
    declarers = {}
    for rel in files:
        for name in declared[rel]:
            declarers.setdefault(name, set()).add(rel)
    edges = {}
    for rel in files:
        out = {}
        for name in identifiers(code[rel]) - declared[rel] - own[rel]:
            for target in declarers.get(name, ()):
                if target != rel:
                    out.setdefault(target, set()).add(name)
        edges[rel] = {target: sorted(names) for target, names in out.items()}
    return edges


def components(edges):
    """Strongly connected components of more than one node (Tarjan's algorithm, iterative)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = 0
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def describe(component, edges):
    inside = set(component)
    parts = []
    for source in component:
        for target in sorted(edges[source]):
            if target in inside:
                names = edges[source][target]
                shown = ", ".join(names[:4]) + (", …" if len(names) > 4 else "")
                parts.append(f"{os.path.basename(source)} → {os.path.basename(target)} ({shown})")
    return "; ".join(parts)


def check(root, allowed=None):
    allowed = ALLOWED if allowed is None else allowed
    problems, matched = [], set()
    for module, files in module_files(root).items():
        edges = graph(root, files)
        for component in components(edges):
            key = frozenset(component)
            if key in allowed:
                matched.add(key)
                continue
            problems.append(f"{module}: a cycle of {len(component)} files: {describe(component, edges)}")
    for key in allowed:
        if key not in matched:
            problems.append(f"ALLOWED lists {', '.join(sorted(key))}, which is no longer a cycle: remove it")
    return problems


def main(argv):
    return report.run("cycles", check, argv, lambda n: f"{n} finding(s); break a cycle by moving code (see the docstring)",
                      f"no file-level cycle inside a module ({len(ALLOWED)} allowed, each with its reason)")


if __name__ == "__main__":
    sys.exit(main(sys.argv))

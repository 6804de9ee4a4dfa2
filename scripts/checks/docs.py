#!/usr/bin/env python3
"""Docs name what exists: every repository path and Swift/JS symbol a doc names in backticks; and
the front-door documents state no count of the project's parts and no run time.

Read: README.md, CONTRIBUTING.md, docs/*.md, extension/README.md, and the Markdown the generator writes (the
multi-line string literals of Sources/BridgeGenerator/ProjectTemplate*.swift). Only inline
`code spans` count; fenced blocks are commands and output, not references.

What a span is taken for (the first rule that fits):
  - `Target/Suite.test` (SECURITY.md's test names): Tests/Target exists and Suite is declared in it,
    and the test function too when named.
  - `path: name` (a node or Python test and its case): the path exists and names `name`.
  - a path: no spaces, and a `/` or a known file extension. It exists if some tracked file or folder
    ends with it (docs cite `background/router.js` from the extension folder and
    `BridgeSystem/WallTime.swift` from Sources/). Placeholders (`<…>`, `*`, `{…}`, `…`, `NAME`, `ID`),
    URLs and absolute or home paths are not repository paths.
  - a symbol: `CamelCase` with two humps or more, `Type.member…`, or `name()`. The first part must be
    declared in the Swift or JavaScript sources (a type, function, case, property or constant) or be a
    target of Package.swift; each `.member` after a type must be declared somewhere too.

Things not in this repository on purpose are in ALLOWED, each with the reason.

Counts and run times (README.md, CONTRIBUTING.md, docs/ARCHITECTURE.md; outside fenced blocks and
code spans): a number from two up before one of the project's parts ("two checks", "eleven
libraries", "136 hostile inputs") or an estimate of how long something takes ("about 30 s", "takes a
few minutes") is refused. Both kinds went stale here while every test passed: the README said "two
checks" and listed three while test.sh ran four, and "about 30 s" for a tier that takes minutes and
starts a browser. No test can keep such a sentence true, so these documents do not make one: list
the parts (a list cannot disagree with its own count) or name where they are, and leave durations to
scripts/test.sh, which prints each step's. Exact values of behaviour ("every 250 ms", "default 30 s",
"1 MiB") are not estimates and pass.
The man page (Sources/BridgeCLI/Declarations/ManPage.swift): its ENVIRONMENT names every variable a
source reads by name, and lists ExtensionBridge's own from EnvironmentVariable; its EXIT STATUS
(HelpText.exitStatus) names every code of CLIError.Kind and no other but 0 and 1 (doctor's).
README's "What works today" table: every cell says "tested here" or "untested here"; "tested here" only
where the route's own test (ROUTE_TESTS), run by scripts/test.sh, starts that browser; every browser of
BrowserCatalog is named in a row. (docs/INSTALLING.md's environment table is checked against the man page
by BridgeCLITests' GeneratedDocumentationTests.)

Usage: scripts/checks/docs.py [REPO_ROOT]   (stdlib only; tests: scripts/checks/test_docs.py)
"""

import os
import re
import subprocess
import sys

import report

# Named in the docs on purpose, but not declared or kept in this repository.
ALLOWED = {
    # Apple's API, what the seeds and a Safari handler use (macOS; untested here).
    "UserDefaults", "SafariWebExtensionHandler", "SFExtensionMessageKey", "NSExtensionContext",
    "SecItemCopyMatching", "FileManager", "JSONSerialization", "JSONEncoder", "JSONDecoder", "DispatchQueue",
    "NSItemProvider", "SFSafariApplication", "SFSafariApplication.dispatchMessage", "UserDefaults.standard", "SharedDataManager",
    "SafariWebExtensionHandler.beginRequest", "NSExtensionRequestHandling", "NSObject",
    # The seeds' own methods (../shared/seeds, not in this repository), quoted in PROTOCOL.md's seed tables.
    "saveCodable", "loadCodable", "saveToKeychain", "loadFromKeychain",
    # The browsers' and the web platform's API, named in extension/README.md and SECURITY.md.
    "ShadowRoot", "MutationObserver", "TreeWalker", "TextEncoder", "TextDecoder", "TypeError", "AbortController",
    "Function.prototype.toString", "Error.captureStackTrace", "Object.freeze", "JSON.stringify", "JSON.parse",
    "String.prototype.normalize", "Array.prototype", "Intl.Segmenter", "Promise.all", "Date.now",
    "performance.now", "crypto.randomUUID", "structuredClone", "setTimeout", "setInterval", "requestIdleCallback",
    "queueMicrotask", "attachShadow", "getSelection", "execCommand", "sendNativeMessage", "connectNative",
    "getURL", "sendMessage", "postMessage", "alert()", "addListener", "contains", "permissions.contains",
    # Swift's standard library and tool flags named in BENCHMARKS.md and CONVENTIONS-style notes.
    "ContiguousArray", "UnsafeMutableRawBufferPointer", "UnsafeRawBufferPointer", "ManagedBuffer",
    "ExpressibleByStringLiteral", "CustomStringConvertible", "MemberImportVisibility",
    # Python's standard library in the drivers (scripts/e2e).
    "ThreadingHTTPServer",
    # The package's own name (Package.swift's `name:`), not a declaration.
    "ExtensionBridge",
    # JavaScript built-ins, Chromium's trace events and systemd's keys, named in measurements.
    "NaN", "WeakMap", "ParseHTML", "ExecStart", "NSString.boolValue",
    # Files of other sites and projects that benchmarks and examples talk about.
    "jquery.js", "menu.js", "SafariWebExtensionHandler.swift", "ReadLater/extension",
    "options.html", "options/",  # a Safari extension's page, where its manifest names it and where Xcode keeps it
    # The products of the example project docs/GENERATOR.md generates, the seed's view controller, and the
    # Swift runtime's file a static link's dlopen warning comes from (the generated scripts/build.sh).
    "ReadLaterActions", "ReadLaterApp", "ReadLaterSafari", "ViewController", "LibPrespecialized.cpp",
    # Files made at run time or by a generated project (not in this repository).
    "dist/", "install-receipt.json", "updates.json", "extensions.json", "extension-preferences.json",
    # Example names of paths the docs say are refused, and the values of a JS property descriptor.
    "a/b", "x/../y", "writable/enumerable/configurable",
    # A version number and two fuzz records' shared stem, not paths.
    "FILE.orig", "1.2.3-beta.1", "regression-json-depth-510/511",
    # BENCHMARKS.md quotes the name for a folder that is scripts/benchmarks/ here (and says so).
    "scripts/bench/reference/",
    # SECURITY.md's description of its own test-name format.
    "Target/Suite.test",
}
# Paths that are not in the repository on purpose: prefixes of a span.
ALLOWED_PATH_PREFIXES = (
    "../",  # the seeds beside the repository (../shared), and escaping names the docs say are refused
    ".extension-bridge/",  # a generated project's record of its core files
    "~/", "$HOME", "$XDG", "%h/", "/",  # the user's and the system's files, made at run time
    "http://", "https://", "chrome-extension://", "moz-extension://", "chrome://", "about:", "file:",
    ".build/", ".swiftpm/",  # build output
    "keys/", "Safari/", "extension/app/", "bridge-compat/", "extension/bridge-compat/", "Sources/AppActions", "Sources/AppHost", "Tests/AppHostTests",
    "extension-chromium/", "bridge-compat-",  # a Safari import's Chromium folder and generated files
    "ExtensionBridge/", "scripts/build.sh",
    # ^ a project `extension-bridge new` generates (docs/GENERATOR.md, the generated README)
    "queue/", "files/", "suite.json", "core.json", "bridge.json",  # files of a group container or project
    "External Extensions/", "NativeMessagingHosts/", "native-messaging-hosts/", "Default/", "Preferences",
)
SOURCE_EXTENSIONS = (".swift", ".js", ".md", ".py", ".sh", ".html", ".css")
TEMPLATE_GLOB = re.compile(r"^Sources/BridgeGenerator/ProjectTemplate.*\.swift$")

SPAN = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
SWIFT_DECL = re.compile(
    r"\b(?:class|struct|enum|protocol|actor|typealias|extension|func|case|let|var|associatedtype)\s+`?([A-Za-z_]\w*)")
SWIFT_CASES = re.compile(r"\bcase\s+([^\n{]*)")
JS_DECL = re.compile(
    r"\b(?:class|function\*?|const|let|var)\s+([A-Za-z_$][\w$]*)|^\s*(?:async\s+|static\s+|get\s+)*([A-Za-z_$][\w$]*)\s*\([^)]*\)\s*\{"
    r"|^\s*([A-Za-z_$][\w$]*)\s*:|\b(?:root|globalThis)\.([A-Za-z_$][\w$]*)\s*=|\btest\(\s*'([^']+)'|\bdef\s+(\w+)|^\s*export\s+\{([^}]*)\}",
    re.M)
TEST_NAME = re.compile(r"^([A-Za-z]\w*Tests)/([A-Za-z]\w*)(?:\.([\w…]+))?$")
FILE_AND_NAME = re.compile(r"^([\w./-]+\.(?:js|py|sh|swift)):\s*([\w…]+)")
SYMBOL = re.compile(r"^(?:[A-Z][a-z0-9]+[A-Z]\w*|[A-Z]\w*\.[A-Za-z_][\w.]*|[a-z_]\w*\(\))$")


def tracked_files(root):
    out = subprocess.run(["git", "-C", root, "ls-files", "--cached", "--others", "--exclude-standard"], check=True, capture_output=True, text=True).stdout
    return [line for line in out.splitlines() if line]


def doc_sources(root, files):
    """(name, text) of every document checked; a template's text is its string literals."""
    docs = ["README.md", "extension/README.md"] + [f for f in ("CONTRIBUTING.md",) if f in files] + sorted(f for f in files if re.match(r"^docs/[^/]+\.md$", f))
    for name in docs:
        with open(os.path.join(root, name), encoding="utf-8") as f:
            yield name, f.read()
    for name in sorted(f for f in files if TEMPLATE_GLOB.match(f)):
        with open(os.path.join(root, name), encoding="utf-8") as f:
            literals = re.findall(r'"""\n(.*?)"""', f.read(), re.S)
        yield name, "\n".join(literals)


MARKDOWN_NAME = re.compile(r"(?<![\w./:-])((?:\.\./)*[\w-]+(?:/[\w.-]+)*\.md)\b")


def inline_spans(markdown):
    """Each inline code span with its line number, and each Markdown file named in plain text
    (`(DESIGN.md)`, `see docs/SUITE.md`); fenced blocks are skipped."""
    fenced = False
    for number, line in enumerate(markdown.splitlines(), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            for match in SPAN.finditer(line):
                yield number, match.group(1).strip()
            plain = SPAN.sub(" ", re.sub(r"https?://\S+", " ", line))
            for match in MARKDOWN_NAME.finditer(plain):
                yield number, match.group(1)


class Index:
    """What exists: tracked paths, and names declared in Swift, JavaScript and Python."""

    def __init__(self, root, files, package_targets=()):
        self.root = root
        self.files = files
        self.folders = {os.path.dirname(f) for f in files}
        for folder in list(self.folders):
            while folder:
                folder = os.path.dirname(folder)
                self.folders.add(folder)
        self.names = set(package_targets)
        self.by_file = {}
        for f in files:
            if f.endswith((".swift", ".js", ".mjs", ".py")):
                try:
                    with open(os.path.join(root, f), encoding="utf-8") as handle:
                        text = handle.read()
                except (OSError, UnicodeDecodeError):
                    continue
                names = set()
                for match in (SWIFT_DECL if f.endswith(".swift") else JS_DECL).finditer(text):
                    names |= {g for g in match.groups() if g} if not f.endswith(".swift") else {match.group(1)}
                if f.endswith(".swift"):
                    for cases in SWIFT_CASES.finditer(text):
                        names |= set(re.findall(r"(?:^|,)\s*`?([A-Za-z_]\w*)", cases.group(1)))
                for exported in re.findall(r"export\s+\{([^}]*)\}", text):
                    names |= {n.strip().split(" ")[-1] for n in exported.split(",")}
                self.by_file[f] = (names, text)
                self.names |= names

    def path_exists(self, path):
        path = path.rstrip("/")
        if path in self.folders or path in self.files or path + ".swift" in self.files:
            return True
        suffix = "/" + path
        # `Tests/EndToEndTests/UpgradeTests`, `BridgeSystem/Directory`: a Swift file named without its extension.
        candidates = (suffix, suffix + ".swift")
        return any(f.endswith(candidates) for f in self.files) or any(d.endswith(suffix) for d in self.folders)

    def declared_in(self, folder, name):
        prefix = folder.rstrip("/") + "/"
        return any(f.startswith(prefix) and name in names for f, (names, _) in self.by_file.items())

    def file_names(self, path):
        for f, (names, text) in self.by_file.items():
            if f == path or f.endswith("/" + path):
                return names, text
        return None


def is_placeholder(span):
    if re.match(r"^[A-Z]{2,}/", span):  # DIR/…, BASE/…: a folder the reader fills in
        return True
    if "://" in span or "NativeMessagingHosts" in span or "native-messaging-hosts" in span:
        return True  # URLs, and the browsers' manifest folders under a user's home
    return bool(re.search(r"[<>*{}…$|\[\]=\s'\"]|\bNAME\b|\bID\b|\bVERSION\b", span)) or span.endswith("…")


def looks_like_path(span):
    if " " in span or is_placeholder(span) or "(" in span or span.startswith("-"):
        return False
    if span.startswith(".") and "/" not in span:
        return False  # `.js`, `.json`: a file type, not a file
    # A bare file name is checked when it is a source file; `x.json` alone is often a file made at run time.
    return "/" in span or span.endswith(SOURCE_EXTENSIONS)


def check_span(span, index):
    """None when the span names something that exists (or is not a reference); else the problem."""
    if span in ALLOWED or span.split("(")[0] in ALLOWED or span.startswith(ALLOWED_PATH_PREFIXES):
        return None
    test = TEST_NAME.match(span)
    if test:
        target, suite, case = test.groups()
        if not index.path_exists("Tests/" + target):
            return f"test target Tests/{target} does not exist"
        if not index.declared_in("Tests/" + target, suite):
            return f"no suite {suite} in Tests/{target}"
        if case and "…" not in case and not index.declared_in("Tests/" + target, case):
            return f"no test {case} in {suite} (Tests/{target})"
        return None
    pair = FILE_AND_NAME.match(span)
    if pair:
        path, name = pair.groups()
        found = index.file_names(path)
        if found is None:
            return f"no file {path}"
        if "…" not in name and name not in found[0] and name not in found[1]:
            return f"{path} has no {name}"
        return None
    if looks_like_path(span):
        return None if index.path_exists(span) else f"no file or folder {span}"
    if SYMBOL.match(span) and not is_placeholder(span):
        parts = span.rstrip("()").split(".")
        head = parts[0]
        if head not in index.names and not (head[:1].islower() and span.endswith("()")) and head not in ALLOWED:
            return f"{head} is declared nowhere in the Swift or JavaScript sources"
        if head[:1].islower() and span.endswith("()") and head not in index.names:
            return f"{head}() is declared nowhere in the Swift or JavaScript sources"
        for member in parts[1:]:
            if member and member not in index.names:
                return f"{head} has no member {member} declared anywhere"
    return None


STATEMENT_DOCS = ("README.md", "CONTRIBUTING.md", "docs/ARCHITECTURE.md")
NUMBER_WORDS = ("two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|"
                "seventeen|eighteen|nineteen|twenty")
PARTS = (r"checks?|steps?|stages?|tiers?|modules?|librar(?:y|ies)|executables?|products?|targets?|floors?|files?|"
         r"folders?|scripts?|tests?|suites?|cases?|inputs?|rows?|findings?|verbs?|actions?")
# A number from two up, at most one describing word ("hostile"; not "a", "an", "the" or "of": "65 a file"
# is an exit code and its meaning), then a part.
COUNT = re.compile(
    r"(?<![\w.,-])(?:[2-9]|[1-9]\d+|" + NUMBER_WORDS + r")(?:\s+(?!(?:a|an|the|of)\b)[A-Za-z-]+)?\s+(?:" + PARTS
    + r")\b", re.I)
ESTIMATE = re.compile(
    r"(?:\b(?:about|around|roughly|nearly|almost|takes?|took|under|within)\s+|~\s*)"
    r"(?:\d[\d.,]*(?:\s*[\u2013-]\s*\d[\d.,]*)?|a\s+few)\s*(?:s|secs?|seconds?|min|mins|minutes?|h|hours?)\b", re.I)


def prose(markdown):
    """`markdown` with fenced blocks and code spans blanked out, offsets kept (commands and output
    may say anything)."""
    out = []
    fenced = False
    for line in markdown.split("\n"):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            out.append(" " * len(line))
        elif fenced:
            out.append(" " * len(line))
        else:
            out.append(re.sub(r"`[^`\n]*`", lambda m: " " * len(m.group(0)), line))
    return "\n".join(out)


def statement_problems(name, markdown):
    """Each count of the project's parts and each run-time estimate in `markdown` (see the module doc)."""
    text = prose(markdown)
    problems = []
    for pattern, why in (
        (COUNT, "a count of the project's parts, which no test keeps true: list them, or say where they are"),
        (ESTIMATE, "an estimate of how long something takes, which no test keeps true: scripts/test.sh prints "
                   "each step's duration"),
    ):
        for match in pattern.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            shown = " ".join(match.group(0).split())
            problems.append((line, f"{name}:{line}: '{shown}': {why}"))
    return [problem for _, problem in sorted(problems)]


def package_targets(root):
    with open(os.path.join(root, "Package.swift"), encoding="utf-8") as f:
        text = f.read()
    return set(re.findall(r'name:\s*"([^"\\]+)"', text)) | set(re.findall(r'\(\s*"(Fuzz\w+)"', text))


MANUAL = "Sources/BridgeCLI/Declarations/ManPage.swift"
HELP_TEXT = "Sources/BridgeCLI/Declarations/HelpText.swift"
CLI_ERROR = "Sources/BridgeCLI/CLIError.swift"
# A variable the code reads by its name (`environment["HOME"]`, not an assignment to a child's
# environment), and the names a child process is handed on (`for name in ["HOME", …]`).
READ_BY_NAME = re.compile(r'environment\["([A-Z][A-Z0-9_]*)"\](?!\s*=[^=])')
HANDED_ON = re.compile(r'for\s+name\s+in\s+\[((?:\s*"[A-Z][A-Z0-9_]*"\s*,?)+)\]')


def manual_problems(root, files):
    """The man page's ENVIRONMENT and EXIT STATUS against the code (the drift they had: a variable
    the code reads that the page did not list, an exit code the tool returns that it did not name).
    Its FILES are made from the code's own path functions, so they cannot name another file."""
    def read(name):
        with open(os.path.join(root, name), encoding="utf-8") as f:
            return f.read()
    if MANUAL not in files:
        return []
    manual = read(MANUAL)
    problems = []
    if "EnvironmentVariable.allCases" not in manual:
        problems.append(f"{MANUAL}: ENVIRONMENT does not list EnvironmentVariable.allCases, ExtensionBridge's own variables")
    for name in sorted(f for f in files if f.startswith("Sources/") and f.endswith(".swift") and not TEMPLATE_GLOB.match(f)):
        text = read(name)
        read_names = set(READ_BY_NAME.findall(text))
        for listed in HANDED_ON.findall(text):
            read_names |= set(re.findall(r'"([A-Z][A-Z0-9_]*)"', listed))
        for variable in sorted(read_names):
            if not re.search(r'\(\s*"' + variable + '"', manual):
                problems.append(f"{MANUAL}: ENVIRONMENT does not name {variable}, which {name} reads")
    if CLI_ERROR in files and HELP_TEXT in files:
        codes = set(re.findall(r"\bcase\s+\w+\s*=\s*(\d+)", read(CLI_ERROR)))
        help_text = read(HELP_TEXT)
        start = help_text.find("static let exitStatus")
        status = " ".join(re.findall(r'"([^"]*)"', help_text[start:help_text.find("\n\n", start)])) if start >= 0 else ""
        named = set(re.findall(r"(?<![\w.])(\d+) [A-Za-z]", status))
        for code in sorted(codes - named, key=int):
            problems.append(f"{HELP_TEXT}: EXIT STATUS does not name {code}, a CLIError.Kind the tool exits with")
        for code in sorted(named - codes - {"0", "1"}, key=int):
            problems.append(f"{HELP_TEXT}: EXIT STATUS names {code}, which no CLIError.Kind returns")
    return problems


CATALOG = "Sources/BrowserSupport/BrowserCatalog.swift"
# Each route of README's "What works today" table (a word of its column's heading) and the test that
# installs by that route; that test and the browser drivers it runs are the proof of a "tested here".
ROUTE_TESTS = {"Debian package": "scripts/e2e/deb-test.sh", "scripts/install.sh": "scripts/e2e/install-test.sh"}
# A browser of a row (its Debian command in backticks) and what starts it in a driver (scripts/e2e/browsers.py).
DRIVEN_BY = {"chromium": re.compile(r"\b\w*Chromium\("), "firefox-esr": re.compile(r"\bFirefox\(")}
TESTED = re.compile(r"(?<!un)tested here")


def works_today_problems(root, files):
    """README's "What works today" against what proves it. Every cell says "tested here" or "untested
    here"; "tested here" (not "untested") only in a row of a browser that the route's own test, run by
    scripts/test.sh, starts for real; and every browser of the catalog is named in a row. The table said
    "tested here" of routes whose test drove no browser, and left browsers of the catalog out."""
    def read(name):
        with open(os.path.join(root, name), encoding="utf-8") as f:
            return f.read()
    readme = read("README.md")
    start = readme.find("## What works today")
    if start < 0:
        return ["README.md: no '## What works today' section"]
    lines = readme[start:].split("\n")
    rows = []
    for number, line in enumerate(lines[1:], readme[:start].count("\n") + 2):
        if line.startswith("## "):
            break
        if line.startswith("|") and not re.match(r"^\|[-| ]+\|$", line):
            rows.append((number, [cell.strip() for cell in line.strip().strip("|").split("|")]))
    if not rows:
        return ["README.md: 'What works today' has no table"]
    heading, body = rows[0][1], rows[1:]
    test_sh = read("scripts/test.sh") if "scripts/test.sh" in files else ""
    problems = []
    driven = {}
    for column, title in enumerate(heading[1:], 1):
        route = next((r for r in ROUTE_TESTS if r in title.replace("`", "")), None)
        script = ROUTE_TESTS.get(route)
        if script is None or script not in files or script not in test_sh:
            driven[column] = set()
            continue
        text = read(script)
        for driver in sorted(set(re.findall(r"scripts/e2e/\w+\.py", text))):
            if driver in files:
                text += read(driver)
        driven[column] = {browser for browser, pattern in DRIVEN_BY.items() if pattern.search(text)}
    for number, cells in body:
        browsers = set(re.findall(r"`([\w-]+)`", cells[0]))
        for column, cell in enumerate(cells[1:], 1):
            where = f"README.md:{number}: '{cells[0]}' / '{heading[column] if column < len(heading) else '?'}'"
            if TESTED.search(cell):
                proven = browsers & driven.get(column, set())
                if not proven:
                    problems.append(f"{where}: says 'tested here', but no test of that route run by scripts/test.sh "
                                    f"starts this browser ({', '.join(ROUTE_TESTS.values())})")
            elif "untested here" not in cell:
                problems.append(f"{where}: says neither 'tested here' nor 'untested here'")
    if CATALOG in files:
        named = [set(re.findall(r"[a-z]+", cells[0].lower())) for _, cells in body]
        for display in re.findall(r'(?:displayName:\s*|^\s*"[\w-]+",\s*)"([^"]+)"', read(CATALOG), re.M):
            words = set(re.findall(r"[a-z]+", display.lower()))
            if not any(words <= row for row in named):
                problems.append(f"README.md: 'What works today' names no row for {display} (BrowserCatalog)")
    return problems


def check(root):
    files = tracked_files(root)
    index = Index(root, files, package_targets(root))
    problems = []
    for name, text in doc_sources(root, files):
        for line, span in inline_spans(text):
            problem = check_span(span, index)
            if problem:
                problems.append(f"{name}:{line}: `{span}`: {problem}")
    problems.extend(manual_problems(root, files))
    if "README.md" in files and "## What works today" in open(os.path.join(root, "README.md"), encoding="utf-8").read():
        problems.extend(works_today_problems(root, files))
    for name in STATEMENT_DOCS:
        if os.path.exists(os.path.join(root, name)):
            with open(os.path.join(root, name), encoding="utf-8") as f:
                problems.extend(statement_problems(name, f.read()))
    return problems


def main(argv):
    return report.run("docs", check, argv,
                      lambda n: f"{n} problem(s): names the repository does not have, or counts and run times no test keeps",
                      "every path and symbol the docs name exists; the front door states no count or run time")


if __name__ == "__main__":
    sys.exit(main(sys.argv))

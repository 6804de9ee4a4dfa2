#!/usr/bin/env python3
"""Unit tests of scripts/checks/docs.py, modules.py, syscalls.py and cycles.py on small fixture repositories (stdlib unittest).

Run: python3 -m unittest discover -s scripts/checks -p 'test_*.py'   (scripts/test.sh does)
Each fixture holds a mistake the checks found in this repository when they were written (a moved file
the docs still named, an undeclared import, a file-level cycle), so a check that stops catching it fails here.
"""

import contextlib
import io
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cycles  # noqa: E402
import docs  # noqa: E402
import modules  # noqa: E402
import report  # noqa: E402
import syscalls  # noqa: E402

PACKAGE = """// swift-tools-version:6.0
import PackageDescription
let package = Package(
    name: "ExtensionBridge",
    targets: [
        // A comment naming .target(name: "Ghost") is not a target.
        .target(name: "BridgeSystem"),
        .target(name: "BridgeJSON"),
        .target(name: "BridgeHost", dependencies: ["BridgeJSON", "BridgeSystem"]),
        .executableTarget(name: "extension-bridge-bench", dependencies: ["BridgeHost", "BridgeJSON"]),
        .testTarget(name: "BridgeHostTests", dependencies: ["BridgeHost"]),
    ]
)
for (name, dependencies) in [
    ("FuzzEndpoint", ["BridgeHost"]),
] {
    package.targets.append(
        .executableTarget(
            name: name, dependencies: (dependencies + ["FuzzSupport"]).map { .target(name: $0) }, path: "Fuzz/\\(name)"))
}
package.targets.append(.target(name: "FuzzSupport", dependencies: ["BridgeSystem"], path: "Fuzz/FuzzSupport"))
"""

FLOORS = """# Architecture
<!-- module floors -->
```
floor 3  extension-bridge-bench ─▶ BridgeHost, BridgeJSON
floor 1  BridgeHost ─▶ BridgeJSON, BridgeSystem
floor 0  BridgeSystem, BridgeJSON (depend on nothing)
```
"""

SOURCES = {
    "Sources/BridgeSystem/FileLock.swift": "public struct FileLock {}\n",
    "Sources/BridgeJSON/JSONWriter.swift": "public enum JSONWriter { public static func write() {} }\n",
    "Sources/BridgeHost/BridgeEndpoint.swift": (
        "import BridgeJSON\nimport BridgeSystem\n"
        "public struct BridgeEndpoint { func respond() {} }\n"
        "let template = \"\"\"\n    import BridgeCLI\n    \"\"\"\n"),
    "Sources/extension-bridge-bench/main.swift": "import BridgeHost\nimport BridgeJSON\n",
    "Tests/BridgeHostTests/BridgeEndpointTests.swift": (
        "@testable import BridgeHost\nimport Testing\n"
        "struct BridgeEndpointActionTests {\n    @Test func nonObjectMessage_isRefused() {}\n}\n"),
    "Fuzz/FuzzEndpoint/main.swift": "import BridgeHost\nimport FuzzSupport\n",
    "Fuzz/FuzzSupport/Fuzz.swift": "import BridgeSystem\n",
    "extension/background/router.js": "export function route() {}\nexport class HostClient {}\n",
    "extension/background/problems.js": "export const PROBLEMS = {};\n",
    "extension/test/router.test.js": "test('anyType_fromWebPage_isForbidden', () => {});\n",
    "extension/README.md": "The router is `background/router.js`.\n",
    "README.md": "The endpoint: `BridgeEndpoint`, `BridgeEndpoint.respond()`.\n",
    "docs/ARCHITECTURE.md": FLOORS,
    "Package.swift": PACKAGE,
}


def make_repo(files):
    root = tempfile.mkdtemp(prefix="checks-test-")
    for path, text in files.items():
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as f:
            f.write(text)
    subprocess.run(["git", "init", "-q", root], check=True)
    subprocess.run(["git", "-C", root, "add", "-A"], check=True)
    return root


def with_doc(text, name="docs/SECURITY.md"):
    return make_repo({**SOURCES, name: text})


class DocsCheckTests(unittest.TestCase):
    def problems(self, text, name="docs/SECURITY.md"):
        return docs.check(with_doc(text, name))

    def test_aRepositoryWhoseDocsNameWhatExists_passes(self):
        text = (
            "`background/router.js`, `extension/test/router.test.js: anyType_fromWebPage_isForbidden`, "
            "`BridgeHostTests/BridgeEndpointActionTests.nonObjectMessage_isRefused`, `HostClient`, `route()`, "
            "`~/.config/chromium`, `../shared/seeds/`, `https://example.org/a.js`, `Sources/BridgeHost/`, "
            "`JSONWriter.write`, `UserDefaults`, `DIR/NativeMessagingHosts`, `name.json`, see docs/ARCHITECTURE.md\n"
            "```\nRouter.swift lib/router.js in a fenced block are commands, not references\n```\n")
        self.assertEqual(self.problems(text), [])

    def test_aMovedJavaScriptFile_isFound(self):  # extension/README.md cited lib/problems.js
        found = self.problems("Problem codes (`lib/problems.js`).", "extension/README.md")
        self.assertEqual(len(found), 1)
        self.assertIn("lib/problems.js", found[0])
        self.assertIn("extension/README.md:1", found[0])

    def test_aGoneSwiftFile_isFound(self):  # BENCHMARKS.md named Router.swift and SettingsKeys.swift
        found = self.problems("| `Router.swift`, `SettingsKeys.swift`, `BridgeEndpoint.swift` |")
        self.assertEqual(len(found), 2, found)

    def test_aDoubledTestPath_isFound(self):  # SECURITY.md: BridgeHostTests/BridgeHostTests/…
        found = self.problems("`BridgeHostTests/BridgeHostTests/BridgeEndpointActionTests.nonObjectMessage_isRefused`")
        self.assertEqual(len(found), 1, found)

    def test_aSuiteThatDoesNotExist_isFound(self):  # SECURITY.md: BridgeEndpointTests.setSettings_…
        self.assertEqual(len(self.problems("`BridgeEndpointTests.setSettings_badRequests_writeNothing`")), 1)
        self.assertEqual(len(self.problems("`BridgeHostTests/BridgeEndpointTests.nonObjectMessage_isRefused`")), 1)

    def test_aTestCaseThatDoesNotExist_isFound(self):
        self.assertEqual(len(self.problems("`extension/test/router.test.js: gone_case`")), 1)
        self.assertEqual(len(self.problems("`text-replace.test.js: anyType_fromWebPage_isForbidden`")), 1)

    def test_aDocumentThatIsNotInTheRepository_isFound(self):  # PROTOCOL.md cited (DESIGN.md)
        found = self.problems("Foundation's suite does not lock (DESIGN.md).", "docs/PROTOCOL.md")
        self.assertEqual(len(found), 1, found)
        self.assertIn("DESIGN.md", found[0])

    def test_aMissingTypeOrMember_isFound(self):
        self.assertEqual(len(self.problems("`MonotonicClock`")), 1)
        self.assertEqual(len(self.problems("`JSONWriter.gone`")), 1)
        self.assertEqual(len(self.problems("`gone()`")), 1)

    def test_theGeneratorsTemplates_areChecked(self):
        template = 'enum ProjectTemplate {\n    static let readme = """\n    See `lib/router.js`.\n    """\n}\n'
        root = make_repo({**SOURCES, "Sources/BridgeGenerator/ProjectTemplate.swift": template})
        found = docs.check(root)
        self.assertEqual(len(found), 1, found)
        self.assertIn("ProjectTemplate.swift", found[0])


MANUAL = {
    # The man page as it drifted: no EnvironmentVariable list, SOURCE_DATE_EPOCH and 70 left out.
    "Sources/BridgeCLI/Declarations/ManPage.swift": (
        'let environment = [\n    ("HOME", "the home folder"),\n    (\n        "XDG_DATA_HOME",\n        "data"\n    ),\n]\n'),
    "Sources/BridgeCLI/Declarations/HelpText.swift": (
        'enum HelpText {\n    static let exitStatus =\n        "Exit status: 0 ok, 1 doctor found a problem, "\n'
        '        + "64 usage, 74 I/O."\n\n    static let other = "70 x"\n}\n'),
    "Sources/BridgeCLI/CLIError.swift": "enum Kind: Int32 {\n    case usage = 64\n    case software = 70\n    case io = 74\n}\n",
    "Sources/BrowserSupport/Pack.swift": (
        'let t = environment["SOURCE_DATE_EPOCH"]\nlet h = environment["HOME"]\nchild["PATH"] = "/bin"\n'
        'environment["TMPDIR"] = "/tmp"\nfor name in ["HOME", "XDG_DATA_HOME"] { pass(name) }\n'),
}


class ManualTests(unittest.TestCase):
    """The man page's ENVIRONMENT and EXIT STATUS against what the code reads and returns."""

    def test_theDriftTheManPageHad_isFound(self):
        found = docs.check(make_repo({**SOURCES, **MANUAL}))
        self.assertEqual(len(found), 3, found)
        self.assertIn("does not list EnvironmentVariable.allCases", found[0])
        self.assertIn("does not name SOURCE_DATE_EPOCH, which Sources/BrowserSupport/Pack.swift reads", found[1])
        self.assertIn("EXIT STATUS does not name 70", found[2])

    def test_aManPageThatNamesWhatTheCodeDoes_passes(self):
        manual = dict(MANUAL)
        manual["Sources/BridgeCLI/Declarations/ManPage.swift"] += (
            '    ("SOURCE_DATE_EPOCH", "dates") + EnvironmentVariable.allCases.map { ($0.name, "") }\n')
        manual["Sources/BridgeCLI/Declarations/HelpText.swift"] = manual[
            "Sources/BridgeCLI/Declarations/HelpText.swift"].replace("64 usage,", "64 usage, 70 an internal error,")
        self.assertEqual(docs.check(make_repo({**SOURCES, **manual})), [])

    def test_anExitCodeNoKindReturns_isFound(self):
        manual = dict(MANUAL)
        manual["Sources/BridgeCLI/Declarations/HelpText.swift"] = manual[
            "Sources/BridgeCLI/Declarations/HelpText.swift"].replace("64 usage,", "64 usage, 70 internal, 99 gone,")
        found = [p for p in docs.check(make_repo({**SOURCES, **manual})) if "EXIT" in p]
        self.assertEqual(len(found), 1, found)
        self.assertIn("names 99, which no CLIError.Kind returns", found[0])


class DocsStatementTests(unittest.TestCase):
    """Counts of the project's parts and run-time estimates in the front-door documents."""

    def problems(self, text, name="README.md"):
        return docs.check(with_doc(text, name))

    def test_theStaleStatementsThisRepositoryHad_areFound(self):  # README: "Two checks", "about 30 s"
        found = self.problems(
            "The tier to run while working (about 30 s here\nwith a warm build).\n\n"
            "Two checks keep the docs true: docs.py, syscalls.py, modules.py.\n")
        self.assertEqual(len(found), 2, found)
        self.assertTrue(found[0].startswith("README.md:1: 'about 30 s': an estimate"), found)
        self.assertTrue(found[1].startswith("README.md:4: 'Two checks': a count"), found)

    def test_aCountAcrossALineBreak_isFound_withItsLine(self):  # ARCHITECTURE.md: "Eleven libraries on five floors"
        found = self.problems("# Architecture\n\nEleven\nlibraries on five floors.\n" + FLOORS, "docs/ARCHITECTURE.md")
        self.assertEqual([p.split(": '")[1].split("'")[0] for p in found], ["Eleven libraries", "five floors"], found)
        self.assertTrue(found[0].startswith("docs/ARCHITECTURE.md:3:"), found)

    def test_contributingIsChecked_whenThereIsOne(self):
        self.assertEqual(len(self.problems("A full run takes a few minutes.", "CONTRIBUTING.md")), 1)
        self.assertEqual(len(self.problems("It has 136 hostile inputs.", "CONTRIBUTING.md")), 1)

    def test_exactValuesOneAndCodeAreNotCounts(self):
        text = (
            "The watcher looks every 250 ms (default 30 s); no frame over 1 MiB. One file per verb, the one\n"
            "module that imports Foundation. Exit codes: 64 usage, 65 a file that breaks a rule.\n"
            "`--seconds 60` or `two checks` in a code span, and in a fence:\n```\nabout 30 s, two checks\n```\n")
        self.assertEqual(self.problems(text), [])

    def test_otherDocuments_mayCount(self):  # reference pages keep their measurements
        self.assertEqual(self.problems("136 hostile inputs, about 30 s.", "docs/SECURITY.md"), [])


class WorksTodayTests(unittest.TestCase):
    """README's "What works today": a "tested here" the route's test does not prove, a cell that says
    neither, a browser of the catalog with no row, each fails the docs check."""

    FILES = {
        "Sources/BrowserSupport/BrowserCatalog.swift": (
            'Browser(id: "chromium", displayName: "Chromium")\nBrowser(id: "firefox", displayName: "Firefox")\n'),
        "scripts/install.sh": "",
        "scripts/test.sh": "scripts/e2e/install-test.sh\n",
        "scripts/e2e/install-test.sh": '"$python" "$repo/scripts/e2e/drive.py" present\n',
        "scripts/e2e/drive.py": "browser = browsers.Chromium(profile)\n",
    }
    HEAD = "# X\n\n## What works today\n\n| browser | `scripts/install.sh` |\n|---|---|\n"

    def problems(self, rows, **replaced):
        files = {**SOURCES, **self.FILES, **replaced, "README.md": self.HEAD + rows + "\n## Next\n"}
        return [p for p in docs.check(make_repo(files)) if "README.md" in p]

    def test_claims_the_route_test_proves_pass(self):
        rows = "| Debian's `chromium` | works, tested here |\n| Debian's `firefox-esr` | the host only (untested here) |\n"
        self.assertEqual(self.problems(rows), [])

    def test_tested_here_for_a_browser_the_test_does_not_start_fails(self):
        rows = "| Debian's `chromium` | works, tested here |\n| Debian's `firefox-esr` | works, tested here |\n"
        found = self.problems(rows)
        self.assertEqual(len(found), 1, found)
        self.assertIn("firefox-esr", found[0])
        self.assertIn("says 'tested here'", found[0])

    def test_a_route_test_that_test_sh_does_not_run_proves_nothing(self):
        rows = "| Debian's `chromium` | works, tested here |\n| Debian's `firefox-esr` | untested here |\n"
        found = self.problems(rows, **{"scripts/test.sh": "echo nothing\n"})
        self.assertEqual(len(found), 1, found)

    def test_a_cell_that_says_neither_and_a_catalog_browser_without_a_row_fail(self):
        found = self.problems("| Debian's `chromium` | works |\n")
        self.assertTrue(any("neither 'tested here' nor 'untested here'" in p for p in found), found)
        self.assertTrue(any("no row for Firefox" in p for p in found), found)


class ModulesCheckTests(unittest.TestCase):
    def test_aGraphThatAgrees_passes(self):
        self.assertEqual(modules.check(make_repo(SOURCES)), [])

    def test_packageParsing_readsTargetsPathsAndTheFuzzLoop(self):
        targets = modules.parse_package(PACKAGE)
        self.assertNotIn("Ghost", targets)
        self.assertEqual(targets["FuzzEndpoint"].dependencies, ["BridgeHost", "FuzzSupport"])
        self.assertEqual(targets["FuzzEndpoint"].path, "Fuzz/FuzzEndpoint")
        self.assertEqual(targets["BridgeHostTests"].path, "Tests/BridgeHostTests")

    def test_importsInsideAStringLiteral_doNotCount(self):
        self.assertEqual(
            modules.imports_of('import A\n@testable import B\ninternal import C\nlet t = """\nimport D\n"""\n'),
            {"A", "B", "C"})

    def test_aDeclaredDependencyNeverImported_isFound(self):  # the bench declared BridgeHost
        root = make_repo({**SOURCES, "Sources/extension-bridge-bench/main.swift": "import BridgeJSON\n"})
        self.assertEqual(
            modules.check(root), ["extension-bridge-bench: declares BridgeHost in Package.swift but no file imports it"])

    def test_anImportNotDeclared_isFound(self):  # TestSupport imported BridgeJSON undeclared
        root = make_repo({**SOURCES, "Fuzz/FuzzSupport/Fuzz.swift": "import BridgeSystem\nimport BridgeJSON\n"})
        self.assertEqual(modules.check(root), ["FuzzSupport: imports BridgeJSON, which Package.swift does not declare"])

    def test_anEdgeUpTheFloors_isFound(self):
        floors = FLOORS.replace("floor 1  BridgeHost", "floor 0  BridgeHost").replace(
            "floor 0  BridgeSystem, BridgeJSON", "floor 1  BridgeSystem, BridgeJSON")
        found = modules.check(make_repo({**SOURCES, "docs/ARCHITECTURE.md": floors}))
        self.assertTrue(any("does not point down" in p and p.startswith("BridgeHost") for p in found), found)

    def test_aDrawingThatDiffersFromPackageSwift_isFound(self):
        floors = FLOORS.replace("BridgeHost ─▶ BridgeJSON, BridgeSystem", "BridgeHost ─▶ BridgeJSON")
        found = modules.check(make_repo({**SOURCES, "docs/ARCHITECTURE.md": floors}))
        self.assertEqual(len(found), 1, found)
        self.assertIn("draws", found[0])

    def test_aLibraryNotDrawn_isFound(self):
        floors = FLOORS.replace("floor 0  BridgeSystem, BridgeJSON", "floor 0  BridgeJSON")
        found = modules.check(make_repo({**SOURCES, "docs/ARCHITECTURE.md": floors}))
        self.assertIn("BridgeSystem: not on a floor of docs/ARCHITECTURE.md's module drawing", found)


SYSCALLS = (
    "internal import Glibc\n"
    "@discardableResult @inline(__always) internal func system_close(_ fd: Int32) -> Int32 { close(fd) }\n"
    "@inline(__always) internal func system_stat(_ p: UnsafePointer<CChar>, _ i: UnsafeMutablePointer<stat>) -> Int32 {\n"
    "    stat(p, i)\n}\n")


class SyscallsCheckTests(unittest.TestCase):
    def check(self, files):
        return syscalls.check(make_repo({"Sources/BridgeSystem/Internals/Syscalls.swift": SYSCALLS, **files}))

    def test_callsThroughTheWrappers_pass(self):
        text = (
            "struct FileDescriptor {\n    func close() { system_close(fd) }\n"
            "    func status() { var info = stat()\n system_stat(path, &info); self.close() }\n"
            "    // close(fd) in a comment is not a call\n}\n")
        self.assertEqual(self.check({"Sources/BridgeSystem/FileDescriptor.swift": text}), [])

    def test_aRawCallOutsideSyscallsSwift_isFound(self):
        found = self.check({"Sources/BridgeSystem/Directory.swift": "deinit { close(fd) }\nlet r = stat(p, &i)\n"})
        self.assertEqual(len(found), 2, found)
        self.assertIn("Directory.swift:1: calls close()", found[0])

    def test_libcImportedInBridgeSystemOutsideInternals_isFound_unlessAllowed(self):
        block = "#if canImport(Glibc)\n    internal import Glibc\n#elseif canImport(Darwin)\n    internal import Darwin\n#endif\n"
        found = self.check({"Sources/BridgeSystem/Terminal.swift": block})
        self.assertEqual(len(found), 2, found)
        self.assertIn("Sources/BridgeSystem/Terminal.swift:2: imports Glibc; use Internals/Exports.swift", found[0])
        self.assertEqual(self.check({"Sources/BridgeSystem/Internals/Exports.swift": block}), [])
        syscalls.ALLOWED_IMPORTS["Sources/BridgeSystem/Terminal.swift"] = "a C struct layout (test)"
        try:
            self.assertEqual(self.check({"Sources/BridgeSystem/Terminal.swift": block}), [])
        finally:
            del syscalls.ALLOWED_IMPORTS["Sources/BridgeSystem/Terminal.swift"]

    def test_libcImportedOutsideBridgeSystem_isFound(self):
        found = self.check({"Sources/SharedSuite/Suite.swift": "#if canImport(Glibc)\n    import Glibc\n#endif\n"})
        self.assertEqual(found, ["Sources/SharedSuite/Suite.swift:2: imports Glibc; libc belongs to BridgeSystem"])


class CyclesCheckTests(unittest.TestCase):
    def check(self, files, allowed=None):
        return cycles.check(make_repo(files), allowed or {})

    def test_aTwoFileCycle_isFound(self):  # BridgeAction.swift held BuiltInActions, which used the actions
        found = self.check({
            "Sources/BridgeHost/BridgeAction.swift": (
                "public protocol BridgeAction {}\nenum BuiltInActions { static let all = [HelloAction.self] }\n"),
            "Sources/BridgeHost/HelloAction.swift": "struct HelloAction: BridgeAction {}\n",
        })
        self.assertEqual(len(found), 1, found)
        self.assertIn("BridgeHost: a cycle of 2 files", found[0])
        self.assertIn("BridgeAction.swift → HelloAction.swift (HelloAction)", found[0])
        self.assertIn("HelloAction.swift → BridgeAction.swift (BridgeAction)", found[0])

    def test_anExtensionOfATypeDeclaredElsewhere_isAnEdge(self):
        found = self.check({
            "Sources/M/PackError.swift": "enum PackError { case a\n var message: String { Messages.text } }\n",
            "Sources/M/PackError+Messages.swift": "extension PackError {}\nenum Messages { static let text = \"\" }\n",
        })
        self.assertEqual(len(found), 1, found)
        self.assertIn("PackError+Messages.swift → PackError.swift (PackError)", found[0])

    def test_aOneWayUse_isNotReported(self):
        files = {
            "Sources/M/A.swift": "struct A { let b: B; func f() -> C { C() } }\nfunc helper() {}\n",
            "Sources/M/B.swift": "struct B { func g() { helper() } }\nfunc helper() {}\n",
            "Sources/M/C.swift": "extension B {}\nstruct C {}\n",
            "Sources/N/D.swift": "struct D { let a: A }\n",  # another module: no edge
        }
        self.assertEqual(self.check(files), [])
        # B declares its own helper(): no edge to A; naming A makes one, and A → B closes it:
        self.assertEqual(len(self.check({**files, "Sources/M/B.swift": "struct B { func g() { _ = A.self } }\n"})), 1)

    def test_namesInCommentsAndStrings_areIgnored(self):
        files = {
            "Sources/M/A.swift": "struct A { let b: B }\n",
            "Sources/M/B.swift": (
                "struct B {\n    // A in a line comment\n    /* A in a /* nested */ block A */\n"
                "    let s = \"A \\\"A\\\" A\"\n    let t = \"\"\"\n    A\n    \"\"\"\n"
                "    let r = #\"A \\(A) \"A\"#\n    let m = x.A\n}\n"),
        }
        self.assertEqual(self.check(files), [])
        interpolated = {**files, "Sources/M/B.swift": "struct B { let s = \"x \\(A.self) y\" }\n"}
        self.assertEqual(len(self.check(interpolated)), 1)

    def test_privateNamesAndMembers_areTheFilesOwn(self):
        files = {
            "Sources/M/A.swift": "struct A { let b: B }\nprivate struct Helper {}\n",
            "Sources/M/B.swift": "struct B { struct A {}\n func f() { Helper() } }\nprivate func Helper() {}\n",
        }
        self.assertEqual(self.check(files), [])

    def test_anAllowedCycle_passes_andAStaleEntry_isFound(self):
        files = {"Sources/M/A.swift": "struct A { let b: B }\n", "Sources/M/B.swift": "struct B { let a: A }\n"}
        key = frozenset({"Sources/M/A.swift", "Sources/M/B.swift"})
        self.assertEqual(self.check(files, {key: "one unit (test)"}), [])
        files["Sources/M/B.swift"] = "struct B {}\n"
        found = self.check(files, {key: "one unit (test)"})
        self.assertEqual(len(found), 1, found)
        self.assertIn("no longer a cycle", found[0])


class Report(unittest.TestCase):
    """report.run: what every check prints and exits with around its own check()."""

    def run_report(self, problems):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = report.run("x", lambda root: problems, ["x.py", "/repo"], lambda n: f"{n} bad", "all good")
        return code, out.getvalue(), err.getvalue()

    def test_problems_go_to_stderr_with_a_count_and_exit_1(self):
        self.assertEqual(self.run_report(["a", "b"]), (1, "", "x: a\nx: b\nx: 2 bad\n"))

    def test_none_says_what_holds_and_exits_0(self):
        self.assertEqual(self.run_report([]), (0, "x: all good\n", ""))

if __name__ == "__main__":
    unittest.main()

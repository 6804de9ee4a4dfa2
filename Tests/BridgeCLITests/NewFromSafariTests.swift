import BridgeJSON
import BridgeSystem
import Foundation
import TestSupport
import Testing

@testable import BridgeCLI

/// `new --from-safari` through the CLI, in process: the report it prints, what it refuses, and
/// that a refused folder leaves nothing behind. (The key pair needs openssl on PATH.)
@Suite struct NewFromSafariTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    struct Result {
        var status: Int32
        var out: String
        var err: String
    }

    func run(_ args: [String], _ tmp: TemporaryFolder) -> Result {
        var out: [UInt8] = []
        var err: [String] = []
        let context = CLIContext(
            environment: Environment([
                "HOME": tmp.path, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            ]),
            writeOut: { out += $0 }, writeErr: { err.append($0) }, readIn: { [] })
        let status = BridgeCLI.run(args, context: context)
        return Result(status: status, out: String(decoding: out, as: UTF8.self), err: err.joined(separator: "\n"))
    }

    func resources(_ tmp: TemporaryFolder) throws -> String {
        let folder = tmp.path + "/Resources"
        try FileSystem.makeDirectories(folder, permissions: 0o755)
        try FileSystem.writeAtomically(
            folder + "/manifest.json",
            Array(
                #"{"manifest_version": 3, "name": "Hello", "version": "1.0", "background": {"scripts": ["background.js"], "persistent": false}, "content_scripts": [{"js": ["content.js"], "matches": ["<all_urls>"]}]}"#
                    .utf8))
        try FileSystem.writeAtomically(
            folder + "/background.js", Array("browser.runtime.sendNativeMessage({message: \"x\"}, (r) => {});\n".utf8))
        try FileSystem.writeAtomically(
            folder + "/content.js", Array("browser.runtime.sendNativeMessage({message: \"y\"});\n".utf8))
        return folder
    }

    func new(_ tmp: TemporaryFolder, _ extra: [String]) -> Result {
        run(
            [
                "new", "Hello", "--host-name", "com.example.hello", "--group", "group.com.example.hello",
                "--package-path", Self.repository, "--dir", tmp.path + "/Hello",
            ] + extra, tmp)
    }

    /// `--json` says what bridge.json says: an import lists none of the bundled extension's features.
    @Test func importAsJSON_listsNoFeatures_asItsBridgeJSONDoes() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let result = new(tmp, ["--from-safari", try resources(tmp), "--json"])
        #expect(result.status == 0, "\(result.err)")
        let printed = try JSONParser.parse(Array(result.out.utf8))
        #expect(printed["features"] == .array([]), "\(result.out)")
        let bridge = try JSONParser.parse(try FileSystem.readFile(tmp.path + "/Hello/bridge.json"))
        #expect(bridge["features"] == .array([]))
    }

    @Test func import_printsEachChange_andEachSafariAPI_andCopiesTheFiles() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let folder = try resources(tmp)
        let result = new(tmp, ["--from-safari", folder])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("manifest.json: dropped background.persistent"))
        #expect(result.out.contains("manifest.json: added browser_specific_settings.gecko.id hello@example.com"))
        #expect(result.out.contains("background.js:1: browser.runtime.sendNativeMessage (background): yes."))
        #expect(
            result.out.contains("content.js:1: browser.runtime.sendNativeMessage in a content script: no."),
            "\(result.out)")
        #expect(!result.out.contains("features:"), "an imported extension has no --features")
        for name in ["background.js", "content.js"] {
            #expect(
                try FileSystem.readFile(tmp.path + "/Hello/extension/" + name)
                    == FileSystem.readFile(folder + "/" + name))
        }
    }

    @Test func aManifestV2Import_writesChromiumsFolderOfLinks_andEachMessagesAction() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let folder = tmp.path + "/Resources"
        try FileSystem.makeDirectories(folder + "/images", permissions: 0o755)
        // Safari takes the trailing comma; the popup sends its own message, in the one-argument form.
        let manifest =
            #"{"manifest_version": 2, "name": "L", "version": "1.0", "browser_action": {"default_popup": "popup.html"}, "permissions": ["nativeMessaging",],}"#
        for (path, text) in [
            ("manifest.json", manifest), ("popup.html", "<script src=\"popup.js\"></script>"),
            ("popup.js", "browser.runtime.sendNativeMessage({ request: \"getFormats\" });\n"), ("images/a.png", "png"),
        ] {
            try FileSystem.writeAtomically(folder + "/" + path, Array(text.utf8))
        }
        let result = new(tmp, ["--from-safari", folder])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("manifest.json: removed 2 trailing commas"))
        #expect(
            result.out.contains(
                "{request: \"getFormats\"} from popup.js:1 → Sources/HelloActions/SafariMessages/GetFormatsAction.swift"
            ))
        #expect(result.out.contains("in Chromium, extension-chromium/"), "\(result.out)")
        let project = tmp.path + "/Hello"
        #expect(FileSystem.readLink(project + "/extension-chromium/images") == "../extension/images")
        #expect(
            try FileSystem.readFile(project + "/extension-chromium/popup.js")
                == FileSystem.readFile(folder + "/popup.js"))
        let chromium = try JSONParser.parse(try FileSystem.readFile(project + "/extension-chromium/manifest.json"))
        #expect(chromium["manifest_version"] == 3 && chromium["action"]?["default_popup"] == "bridge-compat-popup.html")
        #expect(try FileSystem.status(project + "/Sources/HelloActions/SafariMessages/GetFormatsAction.swift") != nil)
        let dry = new(tmp, ["--from-safari", folder, "--dry-run", "--force"])
        #expect(dry.out.contains("would link \(project)/extension-chromium/images to ../extension/images"))
    }

    @Test func dryRun_printsTheReport_andWritesNothing() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let result = new(tmp, ["--from-safari", try resources(tmp), "--dry-run"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("would write \(tmp.path)/Hello/extension/bridge-compat/safari-shim.js"))
        #expect(result.out.contains("changes:"))
        #expect(try FileSystem.status(tmp.path + "/Hello") == nil)
    }

    @Test func withFeatures_isAUsageError() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let result = new(tmp, ["--from-safari", try resources(tmp), "--features", "vocabulary"])
        #expect(result.status == 64)
        #expect(result.err.contains("--from-safari and --features exclude each other"))
    }

    @Test func aRefusedFolder_exits65_namingWhat_andWritesNothing() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let folder = try resources(tmp)
        try FileSystem.makeSymbolicLink(folder + "/passwd.js", pointingTo: "/etc/passwd")
        let result = new(tmp, ["--from-safari", folder])
        #expect(result.status == 65)
        #expect(result.err.contains("passwd.js: a link that leads outside the folder (/etc/passwd)"), "\(result.err)")
        #expect(try FileSystem.status(tmp.path + "/Hello") == nil)
        let missing = new(tmp, ["--from-safari", tmp.path + "/nowhere"])
        #expect(missing.status == 66)
    }
}

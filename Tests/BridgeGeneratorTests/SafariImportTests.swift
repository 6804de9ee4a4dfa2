import BridgeJSON
import BridgeSystem
import BrowserSupport
import Foundation
import TestSupport
import Testing

@testable import BridgeGenerator

/// `new --from-safari` on a real disk: a Safari resources folder read (and its attacks refused),
/// imported over the real bundled extension's shim, the manifest adapted, the report, and upgrade
/// leaving the author's files alone. (The imported extension in real browsers:
/// scripts/e2e/safari_import.py.)
@Suite struct SafariImportTests {
    let spec = ProjectSpec(
        name: "HelloSafari", hostName: "com.example.hellosafari", group: "group.thisisatest",
        dependency: .carried)
    let key = ExtensionKey(
        privateKeyPEM: Array("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n".utf8),
        publicKeyDER: (0..<294).map { UInt8(truncatingIfNeeded: $0 &* 7) })
    let template: [GeneratedFile]

    init() throws {
        template = try ProjectWriter.readTree(ProjectTemplateTests.repository + "/extension")
    }

    /// Seed 002's manifest, as the article prints it.
    static let seedManifest = """
        {
            "manifest_version": 3,
            "default_locale": "en",
            "name": "__MSG_extension_name__",
            "version": "1.0",
            "icons": { "48": "images/icon-48.png" },
            "background": {
                "scripts": [ "background.js" ],
                "persistent": false
            },
            "content_scripts": [{
                "js": [ "content.js" ],
                "matches": [ "<all_urls>" ]
            }],
            "action": { "default_popup": "popup.html" },
            "permissions": [ "nativeMessaging" ]
        }

        """
    static let background = """
        browser.runtime.onMessage.addListener((request, sender, sendResponse) => {
            browser.runtime.sendNativeMessage({message: "request:enabled_status"}, function(response) {
                sendResponse({"background_response:enabled": response["delivery:enabled_status"]});
            });
            return true;
        });

        """

    /// A resources folder: the seed's three files, a locale, an icon with bytes that are not UTF-8, a popup.
    func resources(_ tmp: TemporaryFolder, manifest: String = seedManifest) throws -> String {
        let folder = tmp.path + "/Resources"
        let files: [(String, [UInt8])] = [
            ("manifest.json", Array(manifest.utf8)),
            ("background.js", Array(Self.background.utf8)),
            ("content.js", Array("browser.runtime.sendMessage({type: \"content_request:enabled\"});\r\n".utf8)),
            ("_locales/en/messages.json", Array(#"{"extension_name": {"message": "Hello"}}"#.utf8)),
            ("images/icon-48.png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0xFF, 0x00, 0xFE]),
            ("popup.html", Array("<script src=\"popup.js\"></script>\n".utf8)),
            ("popup.js", Array("console.log(\"Hello World!\", browser);\n".utf8)),
        ]
        for (path, bytes) in files {
            try FileSystem.makeDirectories(FileSystem.parentPath(folder + "/" + path), permissions: 0o755)
            try FileSystem.writeAtomically(folder + "/" + path, bytes)
        }
        return folder
    }

    func imported(_ folder: String) throws -> (files: [GeneratedFile], report: SafariImport.Report) {
        try ProjectTemplate.files(
            spec: spec, key: key, extensionFiles: template, carried: ProjectTemplateTests.carried(),
            safari: try SafariImport.read(folder))
    }

    func json(_ files: [GeneratedFile], _ path: String) throws -> JSONValue {
        let file = try #require(files.first { $0.path == path }, "\(path) is written")
        return try JSONParser.parse(file.bytes)
    }

    func text(_ files: [GeneratedFile], _ path: String) throws -> String {
        let file = try #require(files.first { $0.path == path }, "\(path) is written")
        return String(decoding: file.bytes, as: UTF8.self)
    }

    @Test func theAuthorsFiles_areCopiedByteForByte_andNothingOfTheBundledExtension() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let folder = try resources(tmp)
        let (files, _) = try imported(folder)
        for path in ["background.js", "content.js", "_locales/en/messages.json", "images/icon-48.png", "popup.html"] {
            let original = try FileSystem.readFile(folder + "/" + path)
            #expect(files.first { $0.path == "extension/" + path }?.bytes == original, "\(path)")
        }
        let paths = Set(files.map(\.path))
        #expect(!paths.contains("extension/background/background.js"), "the bundled background is not added")
        #expect(!paths.contains("extension/popup/popup.html") && !paths.contains("extension/app/app.js"))
        #expect(!paths.contains(where: { $0.hasPrefix("extension/compat/") }))
        // Nor does a plain project get the shim, or its test (which needs it).
        let plain = Set(
            try ProjectTemplate.files(
                spec: spec, key: key, extensionFiles: template, carried: ProjectTemplateTests.carried()
            ).map(\.path))
        #expect(!plain.contains("extension/compat/safari-shim.js"))
        #expect(!plain.contains("extension/test/safari-shim.test.js") && !plain.contains("extension/test/page.test.js"))
        #expect(plain.contains("extension/test/manifest.test.js"))
        #expect(paths.isSuperset(of: ["Package.swift", "bridge.json", "Sources/hellosafari-host/main.swift"]))
        // The host the project builds answers the seed handler's message: the built-in actions.
        #expect(try text(files, "Sources/hellosafari-host/main.swift").contains("BuiltInActions.all"))
        #expect(try text(files, "scripts/test.sh").contains("if [ -d extension/test ]"))
    }

    @Test func theManifest_isAdaptedForChromiumAndFirefox_keepingTheRest() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let (files, report) = try imported(try resources(tmp))
        let manifest = try json(files, "extension/manifest.json")
        // The entry sits where the background's relative URLs resolve in Safari: the root, for scripts.
        #expect(manifest["background"]?["service_worker"]?.stringValue == "bridge-compat-service-worker.js")
        #expect(
            manifest["background"]?["scripts"]
                == .array([.string("bridge-compat/safari-shim.js"), .string("background.js")]))
        #expect(manifest["background"]?["persistent"] == nil)
        #expect(manifest["browser_specific_settings"]?["gecko"]?["id"]?.stringValue == "hellosafari@example.com")
        #expect(manifest["key"]?.stringValue == key.manifestKey)
        #expect(manifest["permissions"] == .array([.string("nativeMessaging")]), "not added twice")
        #expect(
            manifest["content_scripts"]?.arrayValue?.first?["js"]
                == .array([.string("bridge-compat/browser-namespace.js"), .string("content.js")]))
        for field in ["default_locale", "name", "version", "icons", "action"] {
            #expect(manifest[field] == (try JSONParser.parse(Array(Self.seedManifest.utf8)))[field], "\(field) kept")
        }
        let worker = try text(files, "extension/bridge-compat-service-worker.js")
        #expect(worker.contains("importScripts(\n  \"/bridge-compat/safari-shim.js\",\n  \"/background.js\",\n);"))
        let shim = try text(files, "extension/bridge-compat/safari-shim.js")
        #expect(shim.contains("const HOST_NAME = \"com.example.hellosafari\";"))
        #expect(!shim.contains("org.extensionbridge.host"))
        #expect(report.changes.contains { $0.contains("dropped background.persistent") })
        #expect(report.changes.contains { $0.contains("gecko.id hellosafari@example.com") })
        #expect(report.changes.contains { $0.contains("nativeMessaging") } == false, "it was there already")
    }

    @Test func aModuleBackground_getsAModuleEntry_andPermissionsAreAddedWhenMissing() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let manifest = """
            {"manifest_version": 3, "name": "M", "version": "1",
             "background": {"service_worker": "/background.js", "type": "module"},
             "browser_specific_settings": {"gecko": {"id": "old@example.com"}, "safari": {"strict_min_version": "15.4"}}}
            """
        let (files, report) = try imported(try resources(tmp, manifest: manifest))
        let adapted = try json(files, "extension/manifest.json")
        #expect(adapted["background"]?["type"]?.stringValue == "module")
        #expect(
            try text(files, "extension/bridge-compat-service-worker.js").contains(
                "import \"/bridge-compat/safari-shim.js\";\nimport \"/background.js\";\n"))
        #expect(adapted["permissions"] == .array([.string("nativeMessaging")]))
        #expect(adapted["browser_specific_settings"]?["safari"] != nil, "Safari's own settings kept")
        #expect(report.changes.contains { $0.contains("replaced your gecko id old@example.com") })
    }

    @Test func hostileNames_andValues_cannotBreakTheGeneratedJavaScriptOrJSON() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        // A script name pack accepts that still means something to JavaScript and URLs (`$`, `;`, `&`,
        // `(`, `[`, a space), and manifest values with newlines and quotes.
        let name = "we ird$(x)[1];&=!,+~@.js"
        let manifest = """
            {"manifest_version": 3, "name": "a\\"b\\nc</script>", "version": "1",
             "description": "line\\u2028break \\" \\\\",
             "background": {"scripts": ["background.js", "we ird$(x)[1];&=!,+~@.js"]}}
            """
        let folder = try resources(tmp, manifest: manifest)
        try FileSystem.writeAtomically(folder + "/" + name, Array("// weird\n".utf8))
        let (files, _) = try imported(folder)
        let adapted = try json(files, "extension/manifest.json")
        let original = try JSONParser.parse(Array(manifest.utf8))
        #expect(adapted["name"] == original["name"] && adapted["description"] == original["description"])
        #expect(adapted["background"]?["scripts"]?.arrayValue?.last?.stringValue == name)
        let worker = try text(files, "extension/bridge-compat-service-worker.js")
        #expect(worker.contains("\"/we%20ird%24%28x%29%5B1%5D%3B%26%3D%21%2C%2B~%40.js\""), "\(worker)")
        // Every line of the entry is a comment, `importScripts(`, a plain string literal, or `);`.
        for line in worker.split(separator: "\n") {
            let plainLiteral =
                line.hasPrefix("  \"/") && line.hasSuffix("\",")
                && line.dropFirst(3).dropLast(2).allSatisfy {
                    $0 != "\"" && $0 != "\\" && $0.isASCII
                }
            #expect(line.hasPrefix("//") || line == "importScripts(" || line == ");" || plainLiteral, "\(line)")
        }
        #expect(files.first { $0.path == "extension/" + name }?.bytes == Array("// weird\n".utf8))
    }

    @Test func theJavaScriptString_escapesQuotesBackslashesAndEveryNonASCIIScalar() {
        #expect(SafariImport.javaScriptString("a\"b\\c\n\u{2028}é") == #""a\"b\\c\u000a\u2028\u00e9""#)
        #expect(SafariImport.urlPath("a b/ü.js") == "a%20b/%C3%BC.js")
    }

    @Test func attacks_inTheFolder_areRefusedByName_andNothingIsRead() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let folder = try resources(tmp)
        try FileSystem.writeAtomically(tmp.path + "/secret.txt", Array("secret".utf8))
        try FileSystem.makeSymbolicLink(folder + "/outside.js", pointingTo: tmp.path + "/secret.txt")
        try FileSystem.makeSymbolicLink(folder + "/up.js", pointingTo: "../secret.txt")
        try FileSystem.makeSymbolicLink(folder + "/loop", pointingTo: ".")
        try FileSystem.writeAtomically(folder + "/bad\u{1b}]0;title\u{7}.js", Array("x".utf8))
        try FileSystem.writeAtomically(folder + "/back\\slash.js", Array("x".utf8))
        try FileSystem.writeAtomically(
            folder + "/huge.bin", [UInt8](repeating: 0, count: SafariImport.fileLimit + 1))
        #expect(mkfifo(folder + "/pipe", 0o600) == 0)
        // A signing key kept with the extension would be published with the project's packages.
        let pem = try ExtensionKey.generate(searchPath: "/usr/bin:/bin").privateKeyPEM
        try FileSystem.writeAtomically(folder + "/signing.pem", pem)
        do {
            _ = try SafariImport.read(folder)
            Issue.record("the folder was imported")
        } catch {
            #expect(error.exitStatus == 65)
            let message = error.description
            #expect(message.contains("outside.js: a link that leads outside the folder"), "\(message)")
            #expect(message.contains("up.js: a link that leads outside the folder"))
            #expect(message.contains("loop: a link back to the imported folder itself"), "\(message)")
            #expect(message.contains("bad\\u001b]0;title\\u0007.js"), "the name is shown escaped: \(message)")
            #expect(!message.contains("\u{1b}"), "no escape byte reaches the terminal")
            #expect(message.contains("back\\slash.js"))
            #expect(message.contains("huge.bin: larger than 16 MiB"))
            #expect(message.contains("pipe: not a regular file"))
            #expect(message.contains("signing.pem: it holds a private key"), "\(message)")
            #expect(message.contains("nothing was written"))
            #expect(!message.contains("secret\n"))
        }
    }

    @Test func aLinkInsideTheFolder_isCopiedAsItsFile_andOurFolderNameIsRefused() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let folder = try resources(tmp)
        try FileSystem.makeSymbolicLink(folder + "/alias.js", pointingTo: "background.js")
        let read = try SafariImport.read(folder)
        #expect(read.files.first { $0.path == "alias.js" }?.bytes == Array(Self.background.utf8))
        try FileSystem.makeDirectory(folder + "/bridge-compat", permissions: 0o755)
        try FileSystem.writeAtomically(folder + "/bridge-compat/x.js", Array("x".utf8))
        #expect(throws: GeneratorError.self) { try SafariImport.read(folder) }
    }

    @Test func aFolderWithoutManifest_orAManifestNoBrowserCanLoad_isRefused() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        #expect(throws: GeneratorError.missing("--from-safari \(tmp.path)/nope: no such folder")) {
            try SafariImport.read(tmp.path + "/nope")
        }
        let empty = tmp.path + "/empty"
        try FileSystem.makeDirectory(empty, permissions: 0o755)
        #expect(throws: GeneratorError.self) { try SafariImport.read(empty) }
        for (manifest, expected) in [
            (#"{"manifest_version": 4, "name": "x", "version": "1"}"#, "versions 2 and 3 only"),
            (#"{"name": "x", "version": "1"}"#, "manifest_version none"),
            (#"{"manifest_version": 3, "background": {"scripts": ["../x.js"]}}"#, "not a path inside"),
            ("[1]", "not a JSON object"),
            ("{\n  \"manifest_version\": 3,\n  \"name\": x\n}", "line 3, column 11"),
        ] {
            let other = TemporaryFolder()
            defer { other.remove() }
            do {
                _ = try imported(try resources(other, manifest: manifest))
                Issue.record("\(manifest) was imported")
            } catch let error as GeneratorError {
                #expect(error.exitStatus == 65 && error.description.contains(expected), "\(error)")
            }
        }
    }

    @Test func theReport_namesSafariOnlyAPIs_whereTheyAre_terminalSafe() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let folder = try resources(tmp)
        try FileSystem.writeAtomically(
            folder + "/content.js",
            Array("// hi\nbrowser.runtime.sendNativeMessage({a: 1});\nsafari.extension.dispatchMessage('x');\n".utf8))
        // A message name with a line separator, C1's CSI (U+009B) and a bidi override (U+202E): the
        // report shows each escaped.
        try FileSystem.writeAtomically(
            folder + "/background.js",
            Array(
                (Self.background + "browser.runtime.sendNativeMessage({type: \"b\u{2028}c\u{9b}2J\u{202e}\"});\n")
                    .utf8))
        try FileSystem.writeAtomically(folder + "/evil.js", Array("browser.runtime.connectNative('app');\n".utf8))
        let (_, report) = try imported(folder)
        func finding(_ file: String, _ api: String) -> SafariImport.Finding? {
            report.findings.first { $0.file == file && $0.api.hasPrefix(api) }
        }
        #expect(finding("content.js", "browser.runtime.sendNativeMessage in a content script")?.equivalent == .no)
        #expect(finding("content.js", "browser.runtime.sendNativeMessage in a content script")?.line == 2)
        #expect(finding("content.js", "safari.extension")?.equivalent == .no)
        #expect(finding("background.js", "browser.runtime.sendNativeMessage (background)")?.equivalent == .yes)
        #expect(
            !report.findings.contains { $0.file == "popup.js" }, "Chromium 156 has browser in pages: nothing to say")
        #expect(finding("evil.js", "browser.runtime.connectNative")?.equivalent == .differs)
        let lines = report.lines.joined(separator: "\n")
        #expect(
            !lines.contains("\u{9b}") && !lines.contains("\u{202e}") && !lines.contains("\u{2028}"),
            "names are escaped for the terminal")
        #expect(lines.contains("b\\u2028c\\u009b2J\\u202e"), "\(lines)")
    }

    /// A name `pack` refuses (`ZipArchive.check`: a quote, a bidi override, any byte outside its ASCII
    /// set) is refused when importing, by pack's own rule, with the name escaped; what pack leaves out
    /// (a dotfile) is not checked.
    @Test func aNamePackWouldRefuse_isRefusedAtImport_byPacksRule() throws {
        for name in ["a\"b.js", "\u{e9}\u{202e}.js", "x\u{9b}2J.js", "sub dir./a.js"] {
            let tmp = TemporaryFolder()
            defer { tmp.remove() }
            let folder = try resources(tmp)
            try FileSystem.makeDirectories(FileSystem.parentPath(folder + "/" + name), permissions: 0o755)
            try FileSystem.writeAtomically(folder + "/" + name, Array("console.log(1);\n".utf8))
            do {
                _ = try SafariImport.read(folder)
                Issue.record("\(name) was imported")
            } catch {
                #expect(error.exitStatus == 65)
                #expect(error.description.contains("pack would refuse this name"), "\(error)")
                #expect(!error.description.contains("\u{202e}") && !error.description.contains("\u{9b}"))
            }
        }
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let folder = try resources(tmp)
        try FileSystem.writeAtomically(folder + "/.a\"b", Array("x".utf8))
        #expect(throws: Never.self) { try SafariImport.read(folder) }
    }

    /// What bridge.json says of an import: the manifest's version as written, and no features (they are
    /// the bundled extension's, which an import does not carry).
    @Test func bridgeJSON_takesTheManifestsVersion_andNoFeatures() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let manifest =
            #"{"manifest_version": 3, "name": "M", "version": "1.0", "background": {"scripts": ["background.js"]}}"#
        let (files, _) = try imported(try resources(tmp, manifest: manifest))
        let bridge = try json(files, "bridge.json")
        #expect(bridge["version"] == "1.0")
        #expect(bridge["features"] == [])
        #expect(try text(files, "Sources/HelloSafariActions/AppConfiguration.swift").contains("\"1.0\""))
    }

    /// Chromium and Firefox keep a repeated manifest key's last value without a word: the import keeps
    /// the same value and names the repeat in its report.
    @Test func aRepeatedManifestKey_isReported() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let manifest = """
            {"manifest_version": 3, "name": "a", "name": "b", "version": "1.0",
             "permissions": ["storage"], "permissions": ["tabs"]}
            """
        let (files, report) = try imported(try resources(tmp, manifest: manifest))
        #expect(try json(files, "extension/manifest.json")["name"] == "b")
        let repeats = report.findings.filter { $0.file == "manifest.json" && $0.api.contains("more than once") }
        #expect(repeats.map(\.api) == ["the key \"name\" more than once", "the key \"permissions\" more than once"])
        #expect(repeats.allSatisfy { $0.equivalent == .differs && $0.advice.contains("last value") })
    }

    @Test func upgrade_replacesOnlyTheShim_andKeepsTheAuthorsFilesAndManifest() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let (files, _) = try ProjectTemplate.files(
            spec: spec, key: key, extensionFiles: template, carried: ProjectTemplateTests.carried("0.0.1"),
            safari: try SafariImport.read(try resources(tmp)))
        let record = try CoreRecord.parse(try #require(files.first { $0.path == CoreRecord.path }).bytes)
        #expect(record.safariImport)
        #expect(
            Set(record.files.keys.filter { !$0.hasPrefix("ExtensionBridge/") }) == [
                "Package.swift", "scripts/build.sh", "scripts/install.sh", "scripts/test.sh", "scripts/package-deb.sh",
                "Safari/README.md", "extension/bridge-compat/safari-shim.js",
                "extension/bridge-compat/browser-namespace.js", "extension/bridge-compat/page.js",
                "extension/bridge-compat/worker-globals.js",
            ])
        #expect(record.files.keys.contains("ExtensionBridge/Package.swift"), "the carried libraries are core too")
        let project = tmp.path + "/HelloSafari"
        try ProjectWriter.write(files, to: project, force: false)
        // The author edits their files and the manifest; an older shim is on disk (as recorded).
        try FileSystem.writeAtomically(project + "/extension/content.js", Array("// mine, edited\n".utf8))
        let upgrader = ProjectUpgrader(
            project: project, extensionFiles: template, carried: try ProjectTemplateTests.carried(),
            dependency: .carried,
            force: false)
        let plan = try upgrader.plan()
        #expect(plan.edited.isEmpty)
        #expect(plan.removals.isEmpty, "nothing of the author's is removed: \(plan.removals)")
        #expect(plan.kept.contains("extension/content.js") && plan.kept.contains("extension/manifest.json"))
        #expect(plan.kept.contains("extension/bridge-compat-service-worker.js"))
        #expect(
            !plan.writes.contains { $0.file.path.hasPrefix("extension/") && !$0.file.path.contains("bridge-compat") })
        try upgrader.apply(plan)
        #expect(try FileSystem.readFile(project + "/extension/content.js") == Array("// mine, edited\n".utf8))
        #expect(try ProjectUpgrader.record(in: project)?.safariImport == true)
        #expect(try FileSystem.status(project + "/extension/background/background.js") == nil)
    }

    @Test func upgradeOfAManifestV2Import_keepsBothManifestsAndTheLinks() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let manifest =
            #"{"manifest_version": 2, "name": "L", "version": "1.0", "browser_action": {"default_popup": "popup.html"}}"#
        let folder = try resources(tmp, manifest: manifest)
        let (files, _) = try ProjectTemplate.files(
            spec: spec, key: key, extensionFiles: template, carried: ProjectTemplateTests.carried("0.0.1"),
            safari: try SafariImport.read(folder))
        let project = tmp.path + "/HelloSafari"
        try ProjectWriter.write(files, to: project, force: false)
        let chromium = try FileSystem.readFile(project + "/extension-chromium/manifest.json")
        let upgrader = ProjectUpgrader(
            project: project, extensionFiles: template, carried: try ProjectTemplateTests.carried(),
            dependency: .carried, force: false)
        let plan = try upgrader.plan()
        #expect(plan.edited.isEmpty && plan.removals.isEmpty)
        #expect(
            !plan.writes.contains {
                !$0.file.path.hasPrefix("extension/bridge-compat/") && $0.file.path.hasPrefix("extension")
            })
        try upgrader.apply(plan)
        #expect(try FileSystem.readFile(project + "/extension-chromium/manifest.json") == chromium)
        #expect(FileSystem.readLink(project + "/extension-chromium/images") == "../extension/images")
    }

    /// A record that names the author's own file (with its fingerprint), or that no longer says the
    /// extension was imported: upgrade still replaces only what a template owns, and removes nothing
    /// of the author's (before, `extension/bg.js` in core.json was deleted).
    @Test func upgrade_aRecordNamingTheAuthorsFiles_neverRemovesOrReplacesThem() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let (files, _) = try ProjectTemplate.files(
            spec: spec, key: key, extensionFiles: template, carried: ProjectTemplateTests.carried("0.0.1"),
            safari: try SafariImport.read(try resources(tmp)))
        let project = tmp.path + "/HelloSafari"
        try ProjectWriter.write(files, to: project, force: false)
        // Everything but the core files in bridge-compat/ (the generated worker beside the author's
        // files is the author's from the import on).
        let authors = try ProjectWriter.readTree(project + "/extension").filter { !$0.path.hasPrefix("bridge-compat/") }
        for marker in [true, false] {
            var record = try #require(try ProjectUpgrader.record(in: project))
            for file in authors {
                record.files["extension/" + file.path] = CoreRecord.fingerprint(
                    path: "extension/" + file.path, bytes: file.bytes)
            }
            record.safariImport = marker
            try FileSystem.writeAtomically(
                project + "/" + CoreRecord.path, JSONWriter.prettyBytes(record.json), permissions: 0o644)
            for retired in [Set<String>(), Set(authors.map { "extension/" + $0.path })] {
                var upgrader = ProjectUpgrader(
                    project: project, extensionFiles: template, carried: try ProjectTemplateTests.carried(),
                    dependency: .carried, force: true)
                upgrader.retiredCoreFiles = retired
                let plan = try upgrader.plan()
                #expect(plan.removals.isEmpty, "\(plan.removals)")
                #expect(plan.keptAsOrig.isEmpty && plan.edited.isEmpty, "\(plan.keptAsOrig)")
                #expect(
                    !plan.writes.contains {
                        $0.file.path.hasPrefix("extension/") && !$0.file.path.contains("bridge-compat")
                    })
                for file in authors { #expect(plan.kept.contains("extension/" + file.path), "\(file.path)") }
                try upgrader.apply(plan)
                for file in authors {
                    #expect(try FileSystem.readFile(project + "/extension/" + file.path) == file.bytes, "\(file.path)")
                }
                #expect(try ProjectUpgrader.record(in: project)?.safariImport == true)
                #expect(try ProjectUpgrader.record(in: project)?.files.keys.contains("extension/bg.js") != true)
            }
        }
    }

    @Test func upgradeForce_withoutARecord_stillTreatsTheImportedExtensionAsTheAuthors() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let (files, _) = try ProjectTemplate.files(
            spec: spec, key: key, extensionFiles: template, carried: ProjectTemplateTests.carried("0.0.1"),
            safari: try SafariImport.read(try resources(tmp)))
        let project = tmp.path + "/HelloSafari"
        try ProjectWriter.write(files.filter { $0.path != CoreRecord.path }, to: project, force: false)
        let upgrader = ProjectUpgrader(
            project: project, extensionFiles: template, carried: try ProjectTemplateTests.carried(),
            dependency: .carried,
            force: true)
        let plan = try upgrader.plan()
        #expect(!plan.writes.contains { $0.file.path == "extension/background/background.js" })
        #expect(!plan.keptAsOrig.contains("extension/manifest.json"), "the adapted manifest is the author's")
        try upgrader.apply(plan)
        #expect(try ProjectUpgrader.record(in: project)?.safariImport == true)
    }
}

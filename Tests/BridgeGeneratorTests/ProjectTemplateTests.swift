import BridgeJSON
import BridgeSystem
import BrowserSupport
import Foundation
import TestSupport
import Testing

@testable import BridgeGenerator

/// The templates over the real bundled extension, with a made-up key (the
/// real key comes from openssl; `ExtensionKeyTests` checks that path).
@Suite struct ProjectTemplateTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    let spec = ProjectSpec(
        name: "ReadLater", hostName: "com.example.readlater", group: "group.com.example.readlater",
        dependency: .carried)
    // 294 bytes shaped like an RSA SubjectPublicKeyInfo: only its hash matters here.
    let key = ExtensionKey(
        privateKeyPEM: Array("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n".utf8),
        publicKeyDER: (0..<294).map { UInt8(truncatingIfNeeded: $0 &* 7) })

    /// This checkout's carried libraries, read once, as version `version`.
    static func carried(_ version: String = "0.1.0") throws -> CarriedSource {
        var carried = try #require(carriedSource)
        carried.version = version
        return carried
    }
    private static let carriedSource = try? CarriedSource.read(repository, version: "0.1.0")

    func files() throws -> [GeneratedFile] {
        let template = try ProjectWriter.readTree(Self.repository + "/extension")
        return try ProjectTemplate.files(spec: spec, key: key, extensionFiles: template, carried: Self.carried())
    }

    func text(_ files: [GeneratedFile], _ path: String) throws -> String {
        let file = try #require(files.first { $0.path == path }, "\(path) is written")
        return String(decoding: file.bytes, as: UTF8.self)
    }

    @Test func writesThePackageTheHostTheTestsAndTheDescription() throws {
        let files = try files()
        let paths = Set(files.map(\.path))
        for path in [
            "Package.swift", "Sources/ReadLaterActions/AppInfoAction.swift",
            "Sources/ReadLaterActions/AppConfiguration.swift", "Sources/readlater-host/main.swift",
            "Tests/ReadLaterHostTests/AppInfoTests.swift", "bridge.json", "README.md", "scripts/install.sh",
            "scripts/test.sh", "scripts/build.sh", "Sources/ReadLaterSafari/SafariWebExtensionHandler.swift",
            "Safari/README.md", "keys/README.md", "keys/extension-private-key.pem", ".gitignore",
            "extension/manifest.json", "extension/extension-id.json", "Sources/ReadLaterApp/AppSuite.swift",
            "Sources/ReadLaterApp/PendingImporter.swift", "Sources/ReadLaterApp/SavedItemStore.swift",
            "Sources/readlater-app/main.swift", "Tests/ReadLaterAppTests/AppSuiteTests.swift",
            "ExtensionBridge/Package.swift", "ExtensionBridge/README.md",
            "ExtensionBridge/Sources/BridgeHost/Session/HostProgram.swift",
        ] {
            #expect(paths.contains(path), "\(path)")
        }
        #expect(!paths.contains("Safari/SafariWebExtensionHandler.swift"), "the handler is a library's now")
        let package = try text(files, "Package.swift")
        #expect(package.contains(#".package(path: "ExtensionBridge")"#), "the carried libraries, by a relative path")
        for product in [
            #".library(name: "ReadLaterActions", targets: ["ReadLaterActions"])"#,
            #".library(name: "ReadLaterApp", targets: ["ReadLaterApp"])"#,
            #".library(name: "ReadLaterSafari", targets: ["ReadLaterSafari"])"#,
            #".executable(name: "readlater-host", targets: ["readlater-host"])"#,
            #".executable(name: "readlater-app", targets: ["readlater-app"])"#,
        ] {
            #expect(package.contains(product), "\(product)")
        }
        let main = try text(files, "Sources/readlater-host/main.swift")
        #expect(main.contains("BuiltInActions.all + [AppInfoAction()]"))
        #expect(main.contains("project: AppConfiguration.name"), "its messages name the project's commands")
        #expect(files.first { $0.path == "scripts/install.sh" }?.permissions == 0o755)
        #expect(files.first { $0.path == "keys/extension-private-key.pem" }?.permissions == 0o600)
    }

    /// `extension-bridge run` builds the host as scripts/build.sh does: both take the command from `HostBuild`.
    @Test func buildScript_buildsTheHostWithTheBuildRunMakes_andTheReadmeSaysToRunIt() throws {
        let files = try files()
        #expect(
            try text(files, "scripts/build.sh").contains(HostBuild.projectCommand(product: "readlater-host") + " 2>&1"))
        #expect(try text(files, "README.md").contains("extension-bridge run --config bridge.json"))
    }

    @Test func bridgeJSON_readsBackWithTheKeysIds() throws {
        let files = try files()
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let file = try #require(files.first { $0.path == "bridge.json" })
        try FileSystem.writeAtomically(tmp.path + "/bridge.json", file.bytes)
        let description = try BridgeDescription.load(tmp.path + "/bridge.json")
        #expect(description.hostName == "com.example.readlater")
        #expect(description.group == "group.com.example.readlater")
        #expect(description.hostProduct == "readlater-host")
        #expect(description.chromiumID == key.chromiumID)
        #expect(description.firefoxID == "readlater@example.com")
        #expect(description.extensionFolder == tmp.path + "/extension")
    }

    /// The extension is the app's own: no trace of the bundled ids, the new
    /// key in the manifest, the app's name, and no private key inside it.
    @Test func extension_isTheAppsOwn() throws {
        let files = try files()
        let extensionFiles = files.filter { $0.path.hasPrefix("extension/") }
        for file in extensionFiles {
            let text = String(decoding: file.bytes, as: UTF8.self)
            for old in [
                "honlgoealnaplikdeeidpcknncfcnfmo", "extension-bridge@extensionbridge.org", "org.extensionbridge.host",
            ] {
                #expect(!text.contains(old), "\(file.path) still names \(old)")
            }
            #expect(!text.contains("BEGIN PRIVATE KEY"), "\(file.path)")
        }
        let manifest = try JSONParser.parse(Array(try text(files, "extension/manifest.json").utf8))
        #expect(manifest["key"]?.stringValue == key.manifestKey)
        #expect(manifest["browser_specific_settings"]?["gecko"]?["id"] == "readlater@example.com")
        #expect(manifest["version"] == "1.0.0")
        let ids = try JSONParser.parse(Array(try text(files, "extension/extension-id.json").utf8))
        #expect(
            ids == [
                "chromium": .string(key.chromiumID), "firefox": "readlater@example.com",
                "hostName": "com.example.readlater",
            ])
        let english = try JSONParser.parse(Array(try text(files, "extension/_locales/en/messages.json").utf8))
        #expect(english["extensionName"]?["message"] == "ReadLater")
    }

    @Test func extension_speaksAsTheApp_inEveryLocaleAndThePopup() throws {
        let files = try files()
        let locales = files.filter { $0.path.hasPrefix("extension/_locales/") && $0.path.hasSuffix("messages.json") }
        #expect(locales.count >= 3)
        func strings(_ value: JSONValue) -> [String] {
            switch value {
            case .string(let text): return [text]
            case .object(let fields): return fields.filter { $0.key != "description" }.values.flatMap(strings)
            case .array(let items): return items.flatMap(strings)
            default: return []
            }
        }
        for file in locales {
            let json = try JSONParser.parse(file.bytes)
            for text in strings(json) {
                #expect(!text.contains("ExtensionBridge"), "\(file.path): \(text)")
            }
            #expect(strings(json).contains { $0.contains("ReadLater") }, "\(file.path) names the app")
        }
        #expect(!(try text(files, "extension/popup/popup.html")).contains("ExtensionBridge"))
    }

    @Test func urlDependency_namesThePackageByItsURL() {
        var s = spec
        s.dependency = .url("https://example.com/acme/extension-bridge.git", exact: "0.2.0")
        let package = ProjectTemplate.packageSwift(s)
        #expect(
            package.contains(#".package(url: "https://example.com/acme/extension-bridge.git", exact: "0.2.0")"#),
            "pinned: a new release changes it only through upgrade")
        #expect(package.contains(#"package: "extension-bridge""#))
    }

    /// `Package.swift` with every string literal emptied, lexed as Swift does
    /// (`\\` escapes, a literal ends at an unescaped quote or a line break).
    static func codeOutsideLiterals(_ source: String) -> String {
        var out = ""
        var inLiteral = false
        var escaped = false
        for character in source {
            if inLiteral {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" || character.isNewline {
                    inLiteral = false
                    out.append(character)
                }
            } else {
                out.append(character)
                if character == "\"" { inLiteral = true }
            }
        }
        return out
    }

    /// The URL's last component was written unescaped as
    /// `package: "…"`, so evaluating the manifest ran code from the URL.
    @Test(arguments: [
        #"https://example.com/x")]),.target(name: "Evil", path: "/tmp"),.target(name: "y"#,
        "https://example.com/x\"\nlet evil = 1 //",
        #"https://example.com/\(evil)"#,
        "https://example.com/a\u{2028}b\u{202E}c\u{0}d\r",
    ])
    func hostileURL_cannotLeaveItsStringLiterals(url: String) {
        var hostile = spec
        hostile.dependency = .url(url, exact: "0.2.0")
        var benign = spec
        benign.dependency = .url("https://example.com/extension-bridge.git", exact: "0.2.0")
        // The generator escapes even what validate would refuse: the code around the literals is the same.
        let code = Self.codeOutsideLiterals(ProjectTemplate.packageSwift(hostile))
        #expect(code == Self.codeOutsideLiterals(ProjectTemplate.packageSwift(benign)))
        #expect(!ProjectTemplate.packageSwift(hostile).unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(!ProjectTemplate.packageSwift(hostile).unicodeScalars.contains { $0.value >= 0x7F })
        #expect(throws: GeneratorError.self) { try hostile.validate() }
    }

    /// A project builds where its files go: no generated file names a folder of the machine it was
    /// made on (the source it was made from, a HOME), and the record says `carried`, not a path.
    @Test func noGeneratedFile_namesAFolderOfThisMachine() throws {
        let files = try files()
        for file in files where !file.path.hasPrefix("keys/") {
            let text = String(decoding: file.bytes, as: UTF8.self)
            #expect(!text.contains(Self.repository), "\(file.path) names the source folder")
            #expect(!text.contains("/home/") && !text.contains("/root/"), "\(file.path) names a HOME")
        }
        let record = try CoreRecord.parse(try #require(files.first { $0.path == CoreRecord.path }).bytes)
        #expect(record.dependency == .carried)
        #expect(!(try text(files, CoreRecord.path)).contains("\"path\""))
    }

    /// `<name>-app list` prints each item through `SavedItem.listLine`, which escapes a title's line
    /// breaks (the generated AppSuiteTests check that line; scripts/e2e/generated.sh runs them).
    @Test func appList_printsEachItemAsOneLine() throws {
        let files = try files()
        #expect(try text(files, "Sources/readlater-app/main.swift").contains("print(item.listLine)"))
        #expect(try text(files, "Sources/ReadLaterApp/SavedItemStore.swift").contains("public var listLine: String"))
        #expect(try text(files, "Tests/ReadLaterAppTests/AppSuiteTests.swift").contains("aTitleWithLineBreaks"))
    }

    /// The one build line, and the static link's dlopen warning explained where it is printed.
    @Test func buildScript_isTheOneBuildLine_andExplainsTheDlopenWarning() throws {
        let files = try files()
        let build = try text(files, "scripts/build.sh")
        #expect(build.contains("swift build -c release -Xswiftc -static-executable --product readlater-host 2>&1"))
        #expect(build.contains("sed \"s|^.*warning: Using 'dlopen' in statically linked applications.*\\$|${note}|\""))
        #expect(build.contains("note=\"" + HostBuild.dlopenNote + "\"\n"), "the note run prints too")
        for script in ["scripts/install.sh", "scripts/package-deb.sh"] {
            let text = try text(files, script)
            #expect(text.contains("host=\"$(scripts/build.sh)\""), "\(script) builds through scripts/build.sh")
            #expect(!text.contains("swift build"), "\(script) has no build line of its own")
        }
        #expect(files.first { $0.path == "scripts/build.sh" }?.permissions == 0o755)
    }
}

import BridgeJSON
import BrowserSupport

@testable import BridgeGenerator

/// An imported Safari extension made in memory: its files as text, through the real bundled
/// extension's `compat/` (the tests of one step of the import each start here).
enum SafariFixture {
    static let spec = ProjectSpec(
        name: "HelloSafari", hostName: "com.example.hellosafari", group: "group.thisisatest",
        dependency: .carried)
    static let key = ExtensionKey(
        privateKeyPEM: Array("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n".utf8),
        publicKeyDER: (0..<294).map { UInt8(truncatingIfNeeded: $0 &* 7) })

    static func template() throws -> [GeneratedFile] {
        try ProjectWriter.readTree(ProjectTemplateTests.repository + "/extension")
    }

    /// The import of `files` (path → text).
    static func imported(_ files: [String: String]) throws -> SafariImport.Imported {
        let folder = SafariImport(files: files.sorted { $0.key < $1.key }.map { GeneratedFile($0.key, text: $0.value) })
        return try folder.extensionFiles(spec: spec, key: key, bundled: try template())
    }

    /// The whole project `new --from-safari` writes for `files`.
    static func project(_ files: [String: String]) throws -> (files: [GeneratedFile], report: SafariImport.Report) {
        let folder = SafariImport(files: files.sorted { $0.key < $1.key }.map { GeneratedFile($0.key, text: $0.value) })
        return try ProjectTemplate.files(
            spec: spec, key: key, extensionFiles: try template(), carried: ProjectTemplateTests.carried(),
            safari: folder)
    }
}

extension SafariImport.Imported {
    func file(_ path: String) -> GeneratedFile? { extensionFiles.first { $0.path == path } }
    func text(_ path: String) -> String? { file(path).map { String(decoding: $0.bytes, as: UTF8.self) } }
    func manifest(_ path: String = "manifest.json") -> JSONValue? {
        (extensionFiles + projectFiles).first { $0.path == path }.flatMap { try? JSONParser.parse($0.bytes) }
    }
    var chromium: JSONValue? { manifest(SafariImport.chromiumFolder + "/manifest.json") }
    func findings(_ api: String) -> [SafariImport.Finding] { report.findings.filter { $0.api.hasPrefix(api) } }
    func changed(_ text: String) -> Bool { report.changed(text) }
}

extension SafariImport.Report {
    func changed(_ text: String) -> Bool { changes.contains { $0.contains(text) } }
}

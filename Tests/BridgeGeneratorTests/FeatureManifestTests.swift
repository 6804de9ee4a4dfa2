import BridgeJSON
import BridgeSystem
import BrowserSupport
import Foundation
import TestSupport
import Testing

@testable import BridgeGenerator

/// `new --features`: the generated manifest asks only for what the chosen features need, the
/// extension's app/app.js and bridge.json say which, and a bad list is a usage error.
@Suite struct FeatureManifestTests {
    static let repository = ProjectTemplateTests.repository
    let key = ProjectTemplateTests().key

    func generated(_ features: [ExtensionFeature]) throws -> [GeneratedFile] {
        let spec = ProjectSpec(
            name: "ReadLater", hostName: "com.example.readlater", group: "group.com.example.readlater",
            dependency: .carried, features: features)
        try spec.validate()
        let template = try ProjectWriter.readTree(Self.repository + "/extension")
        return try ProjectTemplate.files(
            spec: spec, key: key, extensionFiles: template, carried: ProjectTemplateTests.carried())
    }

    func json(_ files: [GeneratedFile], _ path: String) throws -> JSONValue {
        try JSONParser.parse(try #require(files.first { $0.path == path }, "\(path) is written").bytes)
    }

    func text(_ files: [GeneratedFile], _ path: String) throws -> String {
        String(decoding: try #require(files.first { $0.path == path }, "\(path) is written").bytes, as: UTF8.self)
    }

    func permissions(_ manifest: JSONValue) -> [String] {
        manifest["permissions"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    @Test func vocabularyOnly_hasNoMenusClipboardOrShortcut_butItsContentScripts() throws {
        let files = try generated([.vocabulary])
        let manifest = try json(files, "extension/manifest.json")
        #expect(permissions(manifest) == ["nativeMessaging", "storage"])
        #expect(manifest["commands"] == nil)
        let scripts = manifest["content_scripts"]?.arrayValue ?? []
        #expect(scripts.count == 2, "the page-world hook and the rewriting script")
        #expect(
            try text(files, "extension/app/app.js").contains("features: Object.freeze(['vocabulary'])"),
            "the background reads the same features")
        let description = try json(files, "bridge.json")
        #expect(description["features"] == ["vocabulary"])
    }

    @Test func everyFeature_isTodaysManifest_withTheAppsKeyAndVersion() throws {
        let files = try generated(ExtensionFeature.all)
        guard
            case .object(var bundled) = try JSONParser.parse(
                FileSystem.readFile(Self.repository + "/extension/manifest.json"))
        else { throw CocoaError(.fileReadCorruptFile) }
        bundled["key"] = .string(key.manifestKey)
        bundled["version"] = "1.0.0"
        bundled["browser_specific_settings"] = [
            "gecko": [
                "id": "readlater@example.com", "strict_min_version": "128.0",
                "data_collection_permissions": ["required": ["none"]],
            ]
        ]
        #expect(try json(files, "extension/manifest.json") == .object(bundled))
        #expect(
            permissions(.object(bundled)) == [
                "nativeMessaging", "storage", "contextMenus", "activeTab", "clipboardWrite",
            ])
        #expect(try json(files, "bridge.json")["features"] == ["vocabulary", "saving", "transform", "secrets"])
    }

    /// Each feature alone: exactly its permissions, shortcut and content scripts (docs/GENERATOR.md's table).
    @Test(arguments: [
        (ExtensionFeature.saving, ["nativeMessaging", "storage", "contextMenus", "activeTab"], true, 1),
        (.transform, ["nativeMessaging", "storage", "contextMenus", "clipboardWrite"], false, 1),
        (.secrets, ["nativeMessaging", "storage"], false, 0),
        (.vocabulary, ["nativeMessaging", "storage"], false, 2),
    ])
    func eachFeatureAlone_asksOnlyForWhatItNeeds(
        feature: ExtensionFeature, expected: [String], shortcut: Bool, contentScripts: Int
    ) throws {
        let bundled = try JSONParser.parse(FileSystem.readFile(Self.repository + "/extension/manifest.json"))
        let manifest = FeatureManifest.manifest(bundled, features: [feature])
        #expect(permissions(manifest) == expected)
        #expect((manifest["commands"] != nil) == shortcut)
        let scripts = manifest["content_scripts"]?.arrayValue
        #expect((scripts?.count ?? 0) == contentScripts)
        if contentScripts == 0 { #expect(manifest.objectValue?.keys.contains("content_scripts") == false) }
        if contentScripts == 1 {
            #expect(scripts?.first?["js"] == ["content/engine.js", "content/content.js"], "no page-world hook")
        }
        #expect(manifest["background"] == bundled["background"] && manifest["action"] == bundled["action"])
    }

    /// The bundled extension's app/app.js is what the generator writes for ExtensionBridge itself.
    @Test func bundledAppModule_isTheGeneratorsForExtensionBridge() throws {
        let bundled = try FileSystem.readFile(Self.repository + "/extension/app/app.js")
        let made = FeatureManifest.appModule(
            name: "ExtensionBridge", hostName: "org.extensionbridge.host", features: ExtensionFeature.all)
        #expect(String(decoding: bundled, as: UTF8.self) == made)
    }

    @Test(arguments: [
        ("vocabulary", [ExtensionFeature.vocabulary]),
        ("saving,vocabulary", [.vocabulary, .saving]),
        (" vocabulary , saving ", [.vocabulary, .saving]),
        ("secrets,secrets,transform", [.transform, .secrets]),
        ("vocabulary,saving,transform,secrets", ExtensionFeature.all),
    ])
    func featureLists_trimmedDeduplicated_inTheCanonicalOrder(list: String, expected: [ExtensionFeature]) throws {
        #expect(try ProjectSpec.features(list) == expected)
    }

    @Test(arguments: [
        ("bogus", "unknown feature 'bogus'"), ("Saving", "feature names are lower case: saving"),
        ("VOCABULARY", "lower case: vocabulary"), ("vocabulary,,saving", "an empty item"),
        ("saving,", "an empty item"), ("", "at least one of"), (" , ", "at least one of"),
        ("saving;transform", "unknown feature 'saving;transform'"),
        ("sav\u{1B}[2Jing", "unknown feature 'sav\\u001b[2Jing'"),
    ])
    func badFeatureLists_areUsageErrors_listingTheKnownOnes(list: String, says: String) {
        do {
            _ = try ProjectSpec.features(list)
            Issue.record("'\(list)' was accepted")
        } catch {
            #expect(error.exitStatus == 64)
            #expect(error.description.contains(says), "\(error.description)")
            if !says.contains("at least one") && !says.contains("empty item") {
                #expect(error.description.contains("vocabulary, saving, transform, secrets"), "\(error.description)")
            }
        }
    }

    /// None is an import's (its extension is the author's, not the bundled one the features are of).
    @Test func aSpecWithFeaturesOutOfOrderOrTwice_isRefused_andNoneIsAnImports() throws {
        var imported = ProjectSpec(
            name: "ReadLater", hostName: "com.example.readlater", group: "group.com.example.readlater",
            dependency: .carried)
        imported.features = []
        try imported.validate()
        for features in [[ExtensionFeature.saving, .vocabulary], [.saving, .saving]] {
            var spec = ProjectSpec(
                name: "ReadLater", hostName: "com.example.readlater", group: "group.com.example.readlater",
                dependency: .carried)
            spec.features = features
            #expect(throws: GeneratorError.self) { try spec.validate() }
        }
    }

    @Test func anExtensionWithoutAppModule_isRefused() throws {
        let template = try ProjectWriter.readTree(Self.repository + "/extension").filter { $0.path != "app/app.js" }
        let spec = ProjectSpec(
            name: "ReadLater", hostName: "com.example.readlater", group: "group.com.example.readlater",
            dependency: .carried)
        #expect(throws: GeneratorError.self) {
            try ProjectTemplate.files(
                spec: spec, key: key, extensionFiles: template, carried: ProjectTemplateTests.carried())
        }
    }
}

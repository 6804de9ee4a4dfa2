import BridgeJSON
import BridgeSystem
import Foundation
import TestSupport
import Testing

@testable import BrowserSupport

@Suite struct BridgeDescriptionTests {
    @Test func load_refusesWhatItCannotUse_namingTheFile() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let path = tmp.path + "/bridge.json"
        let good: [String: JSONValue] = [
            "formatVersion": 1, "name": "A", "hostName": "com.example.a", "group": "group.a", "hostProduct": "a-host",
            "version": "1.0",
            "extension": [
                "folder": "extension", "chromiumID": .string(String(repeating: "c", count: 32)),
                "firefoxID": "a@example.com",
            ],
        ]
        try FileSystem.writeAtomically(path, JSONWriter.bytes(.object(good)))
        let loaded = try BridgeDescription.load(path)
        #expect(loaded.extensionFolder == tmp.path + "/extension")
        #expect(loaded.identity.firefoxIDs == ["a@example.com"])
        #expect(loaded.chromiumManifest == nil)
        // A Manifest V2 import names Chromium's own manifest; relative to the file, as the folder is.
        var twoManifests = loaded
        twoManifests.extensionFolder = "extension"
        twoManifests.chromiumManifest = "extension-chromium/manifest.json"
        try FileSystem.writeAtomically(path, JSONWriter.bytes(twoManifests.json))
        #expect(try BridgeDescription.load(path).chromiumManifest == tmp.path + "/extension-chromium/manifest.json")
        try FileSystem.writeAtomically(path, JSONWriter.bytes(.object(good)))
        for (key, value) in [
            ("formatVersion", JSONValue.int(9)), ("hostName", "Bad.Name"), ("hostProduct", "../x"), ("name", .int(1)),
        ] {
            var bad = good
            bad[key] = value
            try FileSystem.writeAtomically(path, JSONWriter.bytes(.object(bad)))
            #expect(throws: InstallError.self) { try BridgeDescription.load(path) }
        }
        try FileSystem.writeAtomically(path, Array("{not json".utf8))
        do {
            _ = try BridgeDescription.load(path)
        } catch {
            #expect(error.description.contains(path))
        }
    }

    func write(
        _ tmp: TemporaryFolder, name: String = "A", group: String = "group.a", hostName: String = "com.example.a",
        firefoxID: String = "a@example.com", hostProduct: String = "a-host"
    ) throws -> String {
        let path = tmp.path + "/bridge.json"
        let description: JSONValue = [
            "formatVersion": 1, "name": .string(name), "hostName": .string(hostName), "group": .string(group),
            "hostProduct": .string(hostProduct), "version": "1.0",
            "extension": [
                "folder": "extension", "chromiumID": .string(String(repeating: "c", count: 32)),
                "firefoxID": .string(firefoxID),
            ],
        ]
        try FileSystem.writeAtomically(path, JSONWriter.bytes(description))
        return path
    }

    /// Chromium names the extension by its manifest's key: a bridge.json id the key does not give
    /// would have install allow another extension and refuse this one.
    @Test func load_refusesAChromiumIDTheManifestsKeyDoesNotGive_namingBothAndTheFix() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let path = try write(tmp)
        let keyID = try #require(ExtensionIdentity.chromiumID(fromKey: "AAAA"))
        // No manifest yet: the command that needs one says so.
        #expect(try BridgeDescription.load(path).chromiumID == String(repeating: "c", count: 32))
        try Packing.write(["extension/manifest.json": #"{"manifest_version": 3, "key": "AAAA"}"#], under: tmp.path)
        do {
            _ = try BridgeDescription.load(path)
            Issue.record("a mismatched id was loaded")
        } catch {
            #expect(error.description.contains(String(repeating: "c", count: 32)))
            #expect(error.description.contains("gives the Chromium id \(keyID)"))
            #expect(error.description.contains("set extension.chromiumID to \(keyID)"))
        }
        // The id the key gives loads; Chromium's own manifest (a Manifest V2 import) is the one checked.
        var fixed = BridgeDescription(
            name: "A", hostName: "com.example.a", group: "group.a", hostProduct: "a-host", version: "1.0",
            extensionFolder: "extension", chromiumID: keyID, firefoxID: "a@example.com")
        try FileSystem.writeAtomically(path, JSONWriter.bytes(fixed.json))
        #expect(try BridgeDescription.load(path).chromiumID == keyID)
        fixed.chromiumManifest = "extension-chromium/manifest.json"
        try FileSystem.writeAtomically(path, JSONWriter.bytes(fixed.json))
        try Packing.write(["extension-chromium/manifest.json": #"{"key": "BBBB"}"#], under: tmp.path)
        #expect(throws: InstallError.self) { try BridgeDescription.load(path) }
    }

    /// `group` and `firefoxID` went raw into the host's
    /// `.conf`, where a line break added `allow` lines.
    @Test(arguments: [
        ("group.a\nallow = chrome-extension://eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee/", "a@example.com"),
        ("group.a", "a@example.com\nallow = evil@example.com"), ("group.a", "a@example.com\rallow = evil@x"),
        ("group.a", "a@example.com,evil@example.com"), ("group.a", "a@example.com # x"),
        ("group.a", "a@x\u{2028}allow = evil@x"), ("group.a", "a@x\u{0}"), ("group.a", "--help"),
        ("--help", "a@example.com"), ("-x", "a@example.com"), ("group a", "a@example.com"),
        (String(repeating: "g", count: 201), "a@example.com"), ("group.a", String(repeating: "a", count: 260) + "@x.y"),
    ])
    func load_refusesGroupsAndFirefoxIDsTheConfigurationCannotHold(group: String, firefoxID: String) throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let path = try write(tmp, group: group, firefoxID: firefoxID)
        #expect(throws: InstallError.self) { try BridgeDescription.load(path) }
    }

    /// `"features"` (new --features): optional, every feature when missing (a file from before), read in the
    /// canonical order, written back; anything but a list of known names is refused, naming them.
    @Test func load_readsFeatures_defaultAll_andRefusesUnknownOnes() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let path = try write(tmp)
        #expect(try BridgeDescription.load(path).features == ExtensionFeature.all)
        guard case .object(var members) = try JSONParser.parse(FileSystem.readFile(path)) else {
            Issue.record("not an object")
            return
        }
        members["features"] = ["transform", "vocabulary", "transform"]
        try FileSystem.writeAtomically(path, JSONWriter.bytes(.object(members)))
        let loaded = try BridgeDescription.load(path)
        #expect(loaded.features == [.vocabulary, .transform])
        #expect(loaded.json["features"] == ["vocabulary", "transform"])
        // None: an import's (`new --from-safari`).
        members["features"] = []
        try FileSystem.writeAtomically(path, JSONWriter.bytes(.object(members)))
        #expect(try BridgeDescription.load(path).features == [])
        for bad: JSONValue in [["Saving"], ["bogus"], "vocabulary", [.int(1)], ["vocabulary", .null]] {
            members["features"] = bad
            try FileSystem.writeAtomically(path, JSONWriter.bytes(.object(members)))
            do {
                _ = try BridgeDescription.load(path)
                Issue.record("accepted features \(bad)")
            } catch {
                #expect(error.description.contains("features") && error.description.contains("vocabulary, saving"))
            }
        }
    }

    /// A bridge.json naming the built-in host took over the built-in bridge.
    @Test func load_refusesTheBuiltInHostName() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let path = try write(tmp, hostName: "org.extensionbridge.host")
        do {
            _ = try BridgeDescription.load(path)
            Issue.record("accepted the built-in host name")
        } catch {
            #expect(error.description.contains("is the built-in bridge's"))
        }
    }

    /// A system install puts the host in /usr/lib/<host name>: never a browser's folder.
    @Test(arguments: ["chromium", "firefox-esr"])
    func load_refusesAHostNameOfTheDistributionsPackages(hostName: String) throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let path = try write(tmp, hostName: hostName)
        #expect(throws: InstallError.self) { try BridgeDescription.load(path) }
    }

    @Test(arguments: [".", "..", "-x", ".hidden", "a b", "a\nb"])
    func load_refusesAHostProductThatIsNoPlainName(hostProduct: String) throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let path = try write(tmp, hostProduct: hostProduct)
        #expect(throws: InstallError.self) { try BridgeDescription.load(path) }
    }

    /// `pack` names its files after `name`: a path or a bidi character there wrote outside `--out`
    /// or under a name that reads otherwise. The rule is `new`'s.
    @Test(arguments: ["../../X", "Evil\u{202E}X", "a/b", "_x", "1x", String(repeating: "a", count: 65)])
    func load_refusesANameThatIsNoSwiftIdentifier_namingTheValueAndTheRule(name: String) throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let path = try write(tmp, name: name)
        do {
            _ = try BridgeDescription.load(path)
            Issue.record("accepted the name \(name)")
        } catch {
            #expect(error.description.contains("name '"))
            #expect(error.description.contains(BridgeDescription.nameRule))
            #expect(!error.description.contains("\u{202E}"))
        }
    }

    @Test func load_takesFirefoxGUIDsAndEmailIDs() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        for id in ["{ec8030f7-c20a-464f-9b0e-13a3a9e97384}", "@x", "a.b_c-d@e.f"] {
            #expect(try BridgeDescription.load(try write(tmp, firefoxID: id)).firefoxID == id)
        }
    }

    /// One name for one app: the host, the store packages and (where Debian allows it) the package.
    @Test(arguments: [("ReadLater", "readlater", "readlater"), ("Read_Later2", "read_later2", "read-later2")])
    func fileName_isTheNameInLowerCase_andDebiansWithoutUnderscores(name: String, file: String, debian: String) {
        let description = BridgeDescription(
            name: name, hostName: "com.example.a", group: "group.a", hostProduct: file + "-host", version: "1.0",
            extensionFolder: "extension", chromiumID: String(repeating: "c", count: 32), firefoxID: "a@example.com")
        #expect(description.fileName == file)
        #expect(description.debianName == debian)
    }
}

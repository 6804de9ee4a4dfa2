import BridgeJSON
import Foundation
import TestSupport
import Testing

/// `extension-bridge pack` as a release script runs it: the real binary, a fresh HOME.
@Suite struct PackTests {
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    struct Setup {
        let tmp = TemporaryFolder()
        var home: String { tmp.path + "/home" }
        var env: [String: String] { ["HOME": home, "PATH": "/usr/bin:/bin"] }
        var machineKey: String { home + "/.local/share/extension-bridge/keys/extension-bridge.pem" }

        init() throws {
            try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        }

        func pack(_ args: [String], packager: Bool = false) throws -> Finished {
            let who = packager ? ["DEBFULLNAME": "A Packager", "DEBEMAIL": "packager@example.com"] : [:]
            return try runProcess(Binaries.cli, ["pack"] + args, environment: env.merging(who) { $1 })
        }
    }

    func files(_ folder: String) throws -> [String: Data] {
        var out: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            out[name] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
        }
        return out
    }

    @Test func packTwice_sameBytesForEveryFile_machineKeyMadeOnce() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        let common = ["--extension-dir", repository + "/extension", "--update-url", "https://example.com/eb/"]
        let first = try s.pack(common + ["--out", s.tmp.path + "/a"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("made this machine's signing key \(s.machineKey)"))
        let second = try s.pack(common + ["--out", s.tmp.path + "/b"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(!second.stderr.contains("signing key"), "the key is made once: \(second.stderr)")
        // What is left out is said, so an author whose extension loads one of those files sees it.
        #expect(
            second.stderr.contains("left out of the packages as developer files: README.md, bench/, extension-id.json"),
            "\(second.stderr)")

        let a = try files(s.tmp.path + "/a")
        let b = try files(s.tmp.path + "/b")
        let version = try #require(
            try JSONParser.parse(
                Array(Data(contentsOf: URL(fileURLWithPath: repository + "/extension/manifest.json"))))[
                    "version"]?.stringValue)
        #expect(
            a.keys.sorted() == [
                "extension-bridge-\(version).crx", "extension-bridge-\(version).xpi",
                "extension-bridge-\(version).zip", "updates.json", "updates.xml",
            ])
        #expect(a == b, "every file byte for byte")
        for (name, data) in a {
            #expect(first.outText.contains("wrote \(s.tmp.path)/a/\(name) (\(data.count) bytes)\n"), "\(first.outText)")
        }
        #expect(first.outText.split(separator: "\n").count == 5)
        let key = try FileManager.default.attributesOfItem(atPath: s.machineKey)
        #expect((key[.posixPermissions] as? Int) == 0o600)
    }

    /// A bridge made by `new` packs under its one name, the name of its host (`readlater-host`) and
    /// of its Debian package (`readlater`), not one made from the extension's display name.
    @Test func aBridgesPackages_carryItsOneName() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        let project = s.tmp.path + "/ReadLater"
        let made = try runProcess(
            Binaries.cli,
            [
                "new", "ReadLater", "--host-name", "com.example.readlater", "--group", "group.com.example.readlater",
                "--dir", project, "--package-path", repository,
            ], environment: s.env)
        try #require(made.status == 0, "\(made.stderr)")
        let packed = try s.pack(["--config", project + "/bridge.json", "--out", s.tmp.path + "/dist"])
        #expect(packed.status == 0, "\(packed.stderr)")
        #expect(
            try files(s.tmp.path + "/dist").keys.sorted() == [
                "readlater-1.0.0.crx", "readlater-1.0.0.xpi", "readlater-1.0.0.zip",
            ])
    }

    /// The CRX and updates.xml carry the id of the key that signs them; the host manifests allow
    /// bridge.json's id. A keys/ key of another id made a release the host refuses, silently.
    @Test func aKeysKeyOfAnotherID_isRefused_namingBothIDs_andNothingIsWritten() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        let project = s.tmp.path + "/ReadLater"
        let made = try runProcess(
            Binaries.cli,
            [
                "new", "ReadLater", "--host-name", "com.example.readlater", "--group", "group.com.example.readlater",
                "--dir", project, "--package-path", repository,
            ], environment: s.env)
        try #require(made.status == 0, "\(made.stderr)")
        let bridge = try JSONParser.parse(try String(contentsOfFile: project + "/bridge.json", encoding: .utf8))
        let chromiumID = try #require(bridge["extension"]?["chromiumID"]?.stringValue)
        let key = project + "/keys/extension-private-key.pem"
        try FileManager.default.removeItem(atPath: key)
        let other = try runProcess(
            "/usr/bin/openssl", ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", key],
            environment: s.env)
        try #require(other.status == 0)
        chmod(key, 0o600)
        let out = s.tmp.path + "/dist"
        let run = try s.pack([
            "--config", project + "/bridge.json", "--update-url", "https://example.com/rl", "--out", out,
        ])
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains("extension.chromiumID is \(chromiumID)"), "\(run.stderr)")
        let words: [String] = run.stderr.split { !$0.isLetter }.map(String.init)
        let ids = words.filter { (word: String) -> Bool in word.count == 32 && word != chromiumID }
        let keyID: String = try #require(ids.first)
        #expect(run.stderr.contains("Chromium id \(keyID)"), "\(run.stderr)")
        #expect(run.stderr.contains("--key"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out), "nothing written")
    }

    @Test func json_oneRecordPerFile_withTheCRXId() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        let run = try runProcess(
            Binaries.cli, ["pack", "--json", "--extension-dir", repository + "/extension", "--out", s.tmp.path + "/d"],
            environment: s.env)
        #expect(run.status == 0, "\(run.stderr)")
        let records = try run.outText.split(separator: "\n").map { try JSONParser.parse(String($0)) }
        #expect(records.compactMap { $0["kind"]?.stringValue } == ["zip", "xpi", "crx"])
        let id = try #require(records.last?["chromiumID"]?.stringValue)
        #expect(id.count == 32 && id.allSatisfy { ("a"..."p").contains($0) })
    }

    @Test(arguments: ["https://example.com/\"x", "https://example.com/a\nb", "http://example.com", "https://a b"])
    func badUpdateURL_exits64_writesNothing_makesNoKey(url: String) throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        let run = try s.pack([
            "--extension-dir", repository + "/extension", "--out", s.tmp.path + "/d", "--update-url", url,
        ])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("--update-url"))
        #expect(!FileManager.default.fileExists(atPath: s.tmp.path + "/d"))
        #expect(!FileManager.default.fileExists(atPath: s.machineKey))
    }

    /// The signing key kept with the extension it signs (`pack --key ext/key.pem`): refused naming
    /// the file, no package written, and no machine key made.
    @Test func aKeyInsideTheExtensionFolder_isRefused_andNothingIsWritten() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        let ext = s.tmp.path + "/ext"
        try FileManager.default.copyItem(atPath: repository + "/extension", toPath: ext)
        let made = try runProcess(
            "/usr/bin/openssl",
            ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", ext + "/key.pem"],
            environment: s.env)
        try #require(made.status == 0)
        chmod(ext + "/key.pem", 0o600)
        for extra in [["--key", ext + "/key.pem"], []] {
            let run = try s.pack(["--extension-dir", ext, "--out", s.tmp.path + "/d"] + extra)
            #expect(run.status == 65, "\(run.stderr)")
            #expect(run.stderr.contains(ext + "/key.pem holds a private key"), "\(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: s.tmp.path + "/d"))
            #expect(!FileManager.default.fileExists(atPath: s.machineKey))
        }
    }

    /// A content script, or a folder of them, inside the extension that others may write: another
    /// user's code would be signed and run in the user's browser. Refused (77) naming it and the fix;
    /// so is a `--key` in a folder every user can write (not sticky). Nothing is written, no key made.
    @Test func filesOthersCanWrite_insideTheExtension_orAKeysFolder_areRefused() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        let ext = s.tmp.path + "/ext"
        try FileManager.default.copyItem(atPath: repository + "/extension", toPath: ext)
        for (path, mode) in [(ext + "/content/content.js", 0o666), (ext + "/content", 0o777)] {
            chmod(path, mode_t(mode))
            let run = try s.pack(["--extension-dir", ext, "--out", s.tmp.path + "/d"])
            #expect(run.status == 77, "\(run.stderr)")
            #expect(run.stderr.contains("mode \(String(mode, radix: 8))"), "\(run.stderr)")
            #expect(run.stderr.contains("chmod go-w " + path), "\(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: s.tmp.path + "/d"))
            #expect(!FileManager.default.fileExists(atPath: s.machineKey))
            chmod(path, mode_t(mode & 0o755))
        }
        let keys = s.tmp.path + "/keys"
        try FileManager.default.createDirectory(atPath: keys, withIntermediateDirectories: true)
        let made = try runProcess(
            "/usr/bin/openssl",
            ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", keys + "/k.pem"],
            environment: s.env)
        try #require(made.status == 0)
        chmod(keys + "/k.pem", 0o600)
        chmod(keys, 0o777)
        let run = try s.pack(["--extension-dir", ext, "--out", s.tmp.path + "/d", "--key", keys + "/k.pem"])
        #expect(run.status == 77, "\(run.stderr)")
        #expect(run.stderr.contains("chmod go-w " + keys), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: s.tmp.path + "/d"))
        chmod(keys, 0o700)
        let fixed = try s.pack(["--extension-dir", ext, "--out", s.tmp.path + "/d", "--key", keys + "/k.pem"])
        #expect(fixed.status == 0, "\(fixed.stderr)")
    }

    /// The extension folder's own path is held to the rule its files are: a folder another user owns,
    /// or under a folder every user can write (not sticky), or reached through another user's link,
    /// is one whose entries they can rename or swap before it is signed. Refused (77), nothing written.
    @Test func anExtensionFolderOthersControl_isRefused_byPackAndInstall() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        let ext = s.tmp.path + "/ext"
        try FileManager.default.copyItem(atPath: repository + "/extension", toPath: ext)
        let shared = s.tmp.path + "/shared"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: ext, toPath: shared + "/ext")
        chmod(shared, 0o777)
        try FileManager.default.createSymbolicLink(atPath: s.tmp.path + "/link", withDestinationPath: ext)
        let out = s.tmp.path + "/d"
        func refused(_ dir: String, saying: String) throws {
            let run = try s.pack(["--extension-dir", dir, "--out", out])
            #expect(run.status == 77, "\(run.stderr)")
            #expect(run.stderr.contains(saying), "\(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out))
            #expect(!FileManager.default.fileExists(atPath: s.machineKey))
            let install = try runProcess(
                Binaries.cli, ["install", "--crx", "--dry-run", "--browser", "chromium", "--extension-dir", dir],
                environment: s.env)
            #expect(install.status == 77, "\(install.stderr)")
        }
        if getuid() == 0 {
            chown(ext, 65534, 65534)
            try refused(ext, saying: "ext belongs to another user (uid 65534)")
            chown(ext, 0, 0)
            lchown(s.tmp.path + "/link", 65534, 65534)
            try refused(s.tmp.path + "/link", saying: "link belongs to another user (uid 65534)")
        }
        try refused(shared + "/ext", saying: "chmod go-w " + shared)
        chmod(shared, 0o755)
        let fixed = try s.pack(["--extension-dir", shared + "/ext", "--out", out])
        #expect(fixed.status == 0, "\(fixed.stderr)")
    }

    /// The signing key's base64 body without its PEM lines, in a JSON string inside the extension:
    /// `pack` has the key in hand and refuses (65) the file that carries it; nothing is written.
    @Test func theSigningKeysBareBody_insideTheExtension_isRefused() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        let ext = s.tmp.path + "/ext"
        try FileManager.default.copyItem(atPath: repository + "/extension", toPath: ext)
        let key = s.tmp.path + "/k.pem"
        let made = try runProcess(
            "/usr/bin/openssl", ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", key],
            environment: s.env)
        try #require(made.status == 0)
        chmod(key, 0o600)
        let body = try String(contentsOfFile: key, encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("-----") }.joined()
        try Data("{\"privateKey\": \"\(body)\"}".utf8).write(to: URL(fileURLWithPath: ext + "/shared/cfg.json"))
        let run = try s.pack(["--extension-dir", ext, "--out", s.tmp.path + "/d", "--key", key])
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains(ext + "/shared/cfg.json holds a private key"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: s.tmp.path + "/d"))
    }

    /// `pack --update-url` of a manifest without a gecko id exits 65, and this machine's key is not made.
    @Test func aRefusedPack_makesNoKey() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        let ext = s.tmp.path + "/ext"
        try FileManager.default.copyItem(atPath: repository + "/extension", toPath: ext)
        var manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: ext + "/manifest.json")))
                as? [String: Any])
        manifest["browser_specific_settings"] = nil
        try JSONSerialization.data(withJSONObject: manifest).write(to: URL(fileURLWithPath: ext + "/manifest.json"))
        let run = try s.pack([
            "--extension-dir", ext, "--out", s.tmp.path + "/d", "--update-url", "https://example.com/x",
        ])
        #expect(run.status == 65, "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: s.machineKey), "a refused pack made the key")
        #expect(!FileManager.default.fileExists(atPath: s.tmp.path + "/d"))
    }

    /// Another extension packed without `--key` would get the id the built-in host trusts after
    /// `install --crx`: refused (65), saying how to make its own key; with `--key` it packs.
    @Test func anotherExtension_isNeverSignedWithTheMachineKey() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        let ext = s.tmp.path + "/other"
        try FileManager.default.createDirectory(atPath: ext, withIntermediateDirectories: true)
        let key = s.tmp.path + "/other.pem"
        let made = try runProcess(
            "/usr/bin/openssl", ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", key],
            environment: s.env)
        try #require(made.status == 0)
        chmod(key, 0o600)
        let der = try runProcess(
            "/usr/bin/openssl", ["pkey", "-in", key, "-pubout", "-outform", "DER"], environment: s.env)
        let manifest: JSONValue = [
            "manifest_version": 3, "name": "Other", "version": "1.0",
            "key": .string(Data(der.stdout).base64EncodedString()),
            "browser_specific_settings": ["gecko": ["id": "other@example.com"]],
        ]
        try Data(JSONWriter.bytes(manifest)).write(to: URL(fileURLWithPath: ext + "/manifest.json"))
        // The machine key exists (install --crx made it): still refused.
        #expect(try s.pack(["--extension-dir", repository + "/extension", "--out", s.tmp.path + "/ours"]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: s.machineKey))
        for dryRun in [false, true] {
            let run =
                dryRun
                ? try runProcess(
                    Binaries.cli, ["install", "--crx", "--dry-run", "--browser", "chromium", "--extension-dir", ext],
                    environment: s.env)
                : try s.pack(["--extension-dir", ext, "--out", s.tmp.path + "/d"])
            #expect(run.status == 65, "\(run.stderr)")
            #expect(run.stderr.contains("not ExtensionBridge's own extension"), "\(run.stderr)")
            #expect(run.stderr.contains("openssl genpkey"), "\(run.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: s.tmp.path + "/d"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: s.machineKey)) == before)
        let own = try s.pack(["--extension-dir", ext, "--out", s.tmp.path + "/d", "--key", key])
        #expect(own.status == 0, "\(own.stderr)")
    }

    /// `pack --deb`: a host that needs the Swift runtime is refused (a test build is dynamic); a
    /// package with no maintainer (ExtensionBridge's own without DEBFULLNAME and DEBEMAIL, a bridge.json
    /// without one and neither variable) is refused before anything is built, naming the ways to give
    /// one, and a bridge without one takes the packager's; CRX options are refused.
    @Test func deb_refusesADynamicHost_aMissingMaintainer_andCRXOptions() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        let common = ["--deb", "--extension-dir", repository + "/extension", "--out", s.tmp.path + "/out"]
        let hostPath = ["--host-path", Binaries.folder + "/extension-bridge-host"]
        let nobody = try s.pack(common + hostPath)
        #expect(nobody.status == 65, "\(nobody.stderr)")
        #expect(nobody.stderr.contains("set DEBFULLNAME and DEBEMAIL"), "\(nobody.stderr)")
        #expect(!FileManager.default.fileExists(atPath: s.tmp.path + "/out"), "nothing is written")
        let dynamic = try s.pack(common + hostPath, packager: true)
        #expect(dynamic.status == 65, "\(dynamic.stderr)")
        #expect(dynamic.stderr.contains("needs shared libraries") && dynamic.stderr.contains("-static-executable"))
        #expect(try s.pack(common + ["--key", "/nonexistent.pem"]).status == 64)
        let project = s.tmp.path + "/project"
        try FileManager.default.createDirectory(atPath: project + "/.build/release", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: Binaries.folder + "/extension-bridge-host", toPath: project + "/.build/release/a-host")
        try FileManager.default.copyItem(atPath: repository + "/extension", toPath: project + "/extension")
        let description: JSONValue = [
            "formatVersion": 1, "name": "A", "hostName": "com.example.a", "group": "group.com.example.a",
            "hostProduct": "a-host", "version": "1.0.0",
            "extension": [
                "folder": "extension", "chromiumID": "honlgoealnaplikdeeidpcknncfcnfmo",
                "firefoxID": "a@example.com",
            ],
        ]
        try Data(JSONWriter.bytes(description)).write(to: URL(fileURLWithPath: project + "/bridge.json"))
        let noMaintainer = try s.pack(["--deb", "--config", project + "/bridge.json", "--out", s.tmp.path + "/out"])
        #expect(noMaintainer.status == 65, "\(noMaintainer.stderr)")
        #expect(noMaintainer.stderr.contains("\"maintainer\""), "\(noMaintainer.stderr)")
        #expect(noMaintainer.stderr.contains("DEBEMAIL"), "\(noMaintainer.stderr)")
        #expect(!FileManager.default.fileExists(atPath: s.tmp.path + "/out"), "nothing is written")
        // With the packager's name the bridge gets past the maintainer, to its name ("a" is one letter).
        let packager = try s.pack(
            ["--deb", "--config", project + "/bridge.json", "--out", s.tmp.path + "/out"], packager: true)
        #expect(packager.status == 65 && packager.stderr.contains("the package name 'a'"), "\(packager.stderr)")
        #expect(!packager.stderr.contains("maintainer"), "\(packager.stderr)")
    }

    /// `pack --deb` of a bridge named `Chromium` (a package `chromium` would replace Debian's browser)
    /// and of a `copyright` with line breaks (extra `Files:` paragraphs): refused (65), nothing written.
    /// A static executable of the system stands in for the host: both are refused before it matters.
    @Test func deb_aBrowsersNameOrACopyrightWithLineBreaks_isRefused() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        let project = s.tmp.path + "/project"
        try FileManager.default.createDirectory(atPath: project, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: repository + "/extension", toPath: project + "/extension")
        let staticHost = "/sbin/ldconfig"
        try #require(FileManager.default.isExecutableFile(atPath: staticHost))
        func description(name: String, copyright: String?, maintainer: String) -> JSONValue {
            var members: [String: JSONValue] = [
                "formatVersion": 1, "name": .string(name), "hostName": "com.example.a", "group": "group.com.example.a",
                "hostProduct": "a-host", "version": "1.0.0", "maintainer": .string(maintainer),
                "extension": [
                    "folder": "extension", "chromiumID": "honlgoealnaplikdeeidpcknncfcnfmo",
                    "firefoxID": "extension-bridge@extensionbridge.org",
                ],
            ]
            if let copyright { members["copyright"] = .string(copyright) }
            return .object(members)
        }
        let maintainer = "A <a@example.com>"
        // Each refusal names the value that is wrong, and says only what is true of it.
        for (name, copyright, who, says, never) in [
            ("Chromium", "2025 A", maintainer, "distribution uses", "already knows"),
            // bridge.json's name is new's (a Swift identifier): punctuation is refused before Debian's rule.
            ("chromium.", "2025 A", maintainer, "name 'chromium.' is not a Swift identifier", "already knows"),
            ("Chromium+", "2025 A", maintainer, "name 'Chromium+' is not a Swift identifier", "already knows"),
            (
                "ReadLater", "2025 A\n\nFiles: *\nCopyright: nobody\nLicense: public-domain", maintainer,
                "not one line", "Files: *\n"
            ),
            ("ReadLater", "2025 A\u{2028}B", maintainer, "'2025 A\\u{2028}B'", "\u{2028}"),
            ("ReadLater", nil, "A <a@b.c>\nPre-Depends: evil", "the maintainer 'A <a@b.c>\\u{a}Pre", "copyright"),
        ] as [(String, String?, String, String, String)] {
            try Data(JSONWriter.bytes(description(name: name, copyright: copyright, maintainer: who))).write(
                to: URL(fileURLWithPath: project + "/bridge.json"))
            let run = try s.pack([
                "--deb", "--config", project + "/bridge.json", "--host-path", staticHost, "--out", s.tmp.path + "/out",
            ])
            #expect(run.status == 65, "\(run.stderr)")
            #expect(run.stderr.contains(says), "\(run.stderr)")
            #expect(!run.stderr.contains(never), "\(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: s.tmp.path + "/out"), "nothing is written")
        }
    }

    /// `pack --deb --out dist` (relative, as the generated scripts/package-deb.sh passes it) builds:
    /// the output folder is made absolute before anything is staged (the tools run inside the stage,
    /// where `dist/…` named nothing and strip failed). A static executable of the system stands in for
    /// the host; the package is built in a temporary folder, never installed.
    @Test func deb_relativeOut_builds_withOneCopyrightParagraph() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        let project = s.tmp.path + "/project"
        try FileManager.default.createDirectory(atPath: project, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: repository + "/extension", toPath: project + "/extension")
        let staticHost = "/sbin/ldconfig"
        try #require(FileManager.default.isExecutableFile(atPath: staticHost))
        let description: JSONValue = [
            "formatVersion": 1, "name": "ReadLater", "hostName": "com.example.readlater",
            "group": "group.com.example.readlater", "hostProduct": "readlater-host", "version": "1.0.0",
            "maintainer": "A <a@example.com>", "copyright": "2025 A",
            "extension": [
                "folder": "extension", "chromiumID": "honlgoealnaplikdeeidpcknncfcnfmo",
                "firefoxID": "extension-bridge@extensionbridge.org",
            ],
        ]
        try Data(JSONWriter.bytes(description)).write(to: URL(fileURLWithPath: project + "/bridge.json"))
        let run = try runProcess(
            "/bin/sh",
            [
                "-c", "cd \"$0\" && exec \"$1\" pack --deb --config bridge.json --host-path \"$2\" --out dist", project,
                Binaries.cli, staticHost,
            ], environment: s.env)
        #expect(run.status == 0, "\(run.stderr)")
        let deb = project + "/dist/readlater_1.0.0_\(try #require(run.outText.split(separator: "_").last?.dropLast(5)))"
        #expect(run.outText == "wrote \(deb).deb\n", "\(run.outText)")
        let copyright = try runProcess(
            "/bin/sh",
            ["-c", "dpkg-deb --fsys-tarfile \"$0\" | tar -xO ./usr/share/doc/readlater/copyright", deb + ".deb"],
            environment: s.env)
        #expect(copyright.status == 0, "\(copyright.stderr)")
        #expect(copyright.outText.components(separatedBy: "\nFiles: ").count == 2, "\(copyright.outText)")
        #expect(copyright.outText.contains("\nCopyright: 2025 A\n"))
        // The host's configuration says it is the package's (install's header would say to run install),
        // and keeps what install planned.
        let configuration = try runProcess(
            "/bin/sh",
            [
                "-c", "dpkg-deb --fsys-tarfile \"$0\" | tar -xO ./usr/lib/com.example.readlater/readlater-host.conf",
                deb + ".deb",
            ], environment: s.env)
        #expect(configuration.status == 0, "\(configuration.stderr)")
        #expect(configuration.outText.hasPrefix("# extension-bridge-host configuration: part of the readlater package"))
        #expect(configuration.outText.contains("\ngroup = group.com.example.readlater\n"))
        #expect(!configuration.outText.contains("extension-bridge install"))
        let control = try runProcess("/usr/bin/dpkg-deb", ["-f", deb + ".deb", "Suggests"], environment: s.env)
        #expect(
            control.outText.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty,
            "a bridge's features decide what it needs: \(control.outText)")
    }

    /// Three `pack --deb` into one `--out` at once (parallel jobs of a release script): each stages in
    /// a folder of its own (they shared `.stage-NAME`, and each removed the others' files: all three
    /// failed) and the package is renamed into place whole.
    @Test func deb_threeAtOnce_intoOneFolder_allBuild() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        let project = s.tmp.path + "/project"
        try FileManager.default.createDirectory(atPath: project, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: repository + "/extension", toPath: project + "/extension")
        let staticHost = "/sbin/ldconfig"
        try #require(FileManager.default.isExecutableFile(atPath: staticHost))
        let description: JSONValue = [
            "formatVersion": 1, "name": "ReadLater", "hostName": "com.example.readlater",
            "group": "group.com.example.readlater", "hostProduct": "readlater-host", "version": "1.0.0",
            "maintainer": "A <a@example.com>",
            "extension": [
                "folder": "extension", "chromiumID": "honlgoealnaplikdeeidpcknncfcnfmo",
                "firefoxID": "extension-bridge@extensionbridge.org",
            ],
        ]
        try Data(JSONWriter.bytes(description)).write(to: URL(fileURLWithPath: project + "/bridge.json"))
        let runs = Locked([Finished]())
        let threads = (0..<3).map { _ in
            Thread {
                let run = try? s.pack([
                    "--deb", "--config", project + "/bridge.json", "--host-path", staticHost, "--out",
                    s.tmp.path + "/out",
                ])
                runs.update { $0 += run.map { [$0] } ?? [] }
            }
        }
        threads.forEach { $0.start() }
        while !threads.allSatisfy(\.isFinished) { usleep(10_000) }
        #expect(runs.value.map(\.status) == [0, 0, 0], "\(runs.value.map(\.stderr))")
        let left = try FileManager.default.contentsOfDirectory(atPath: s.tmp.path + "/out")
        #expect(left.count == 1 && left[0].hasPrefix("readlater_1.0.0_"), "\(left)")
        let listed = try runProcess("/usr/bin/dpkg-deb", ["-I", s.tmp.path + "/out/" + left[0]], environment: s.env)
        #expect(listed.status == 0 && listed.outText.contains("Package: readlater"), "\(listed.stderr)")

        // Into a folder others can write (not sticky), where they could swap the stage mid-build: refused.
        let open = s.tmp.path + "/open"
        try FileManager.default.createDirectory(atPath: open, withIntermediateDirectories: true)
        chmod(open, 0o777)
        let refused = try s.pack([
            "--deb", "--config", project + "/bridge.json", "--host-path", staticHost, "--out", open + "/out",
        ])
        #expect(refused.status == 77, "\(refused.stderr)")
        #expect(refused.stderr.contains("\(open) is writable by every user"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: open + "/out"), "a refusal makes no folder")

        // A new folder inside a sticky one (as /tmp is): ours, so built there. The sticky folder itself
        // is shared by all: the advice is a folder of one's own inside it, never a chmod of it.
        let shared = s.tmp.path + "/shared"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        chmod(shared, 0o1777)
        let deb = ["--deb", "--config", project + "/bridge.json", "--host-path", staticHost, "--out"]
        let inside = try s.pack(deb + [shared + "/out"])
        #expect(inside.status == 0, "\(inside.stderr)")
        let itself = try s.pack(deb + [shared])
        #expect(itself.status == 77, "\(itself.stderr)")
        #expect(!itself.stderr.contains("chmod") && itself.stderr.contains("a folder of your own"), "\(itself.stderr)")
    }

    /// A relative HOME would put this machine's key in the current folder, and the next pack
    /// elsewhere would make another (another id): refused, nothing made.
    @Test func aRelativeHome_isRefused_andMakesNoKey() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        let run = try runProcess(
            "/bin/sh",
            [
                "-c", "cd \"$0\" && exec \"$1\" pack --extension-dir \"$2\" --out \"$0/d\"", s.tmp.path, Binaries.cli,
                repository + "/extension",
            ],
            environment: ["HOME": "home", "PATH": "/usr/bin:/bin"])
        #expect(run.status == 74, "\(run.stderr)")
        #expect(run.stderr.contains("HOME 'home' is not an absolute path"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: s.home + "/.local"))
        #expect(!FileManager.default.fileExists(atPath: s.tmp.path + "/d"))
    }

    @Test func missingKeyFolder_exits66_namingTheFile() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        let key = s.tmp.path + "/no-keys/signing.pem"
        let run = try s.pack(["--extension-dir", repository + "/extension", "--out", s.tmp.path + "/d", "--key", key])
        #expect(run.status == 66, "\(run.stderr)")
        #expect(run.stderr.contains("no signing key at \(key)"))
        #expect(!FileManager.default.fileExists(atPath: s.tmp.path + "/no-keys"), "--key is never made")

        // A generated project whose keys/ folder is gone: the project's key is not replaced by another.
        let project = s.tmp.path + "/project"
        try FileManager.default.createDirectory(atPath: project, withIntermediateDirectories: true)
        let bridge: JSONValue = [
            "formatVersion": 1, "name": "ReadLater", "hostName": "com.example.readlater",
            "group": "group.com.example.readlater", "hostProduct": "readlater-host", "version": "1.0.0",
            "extension": [
                "folder": .string(repository + "/extension"), "chromiumID": "honlgoealnaplikdeeidpcknncfcnfmo",
                "firefoxID": "readlater@example.com",
            ],
        ]
        try Data(JSONWriter.bytes(bridge)).write(to: URL(fileURLWithPath: project + "/bridge.json"))
        let configured = try s.pack(["--config", project + "/bridge.json", "--out", s.tmp.path + "/d"])
        #expect(configured.status == 66, "\(configured.stderr)")
        #expect(configured.stderr.contains(project + "/keys/extension-private-key.pem"))
        // The machine's key signs only ExtensionBridge's own extension: it is never the advice here.
        #expect(!configured.stderr.contains("machine's key"), "\(configured.stderr)")
        #expect(configured.stderr.contains("from whoever made the project"), "\(configured.stderr)")
        #expect(!FileManager.default.fileExists(atPath: s.machineKey))
    }

    @Test func keyOthersCanRead_exits65_withTheFix() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        let key = s.tmp.path + "/k.pem"
        let made = try runProcess(
            "/usr/bin/openssl", ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", key],
            environment: s.env)
        try #require(made.status == 0)
        chmod(key, 0o644)
        let run = try s.pack(["--extension-dir", repository + "/extension", "--out", s.tmp.path + "/d", "--key", key])
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains("chmod 600"))
        chmod(key, 0o600)
        let fixed = try s.pack(["--extension-dir", repository + "/extension", "--out", s.tmp.path + "/d", "--key", key])
        #expect(fixed.status == 0, "\(fixed.stderr)")
    }

    @Test func outInsideTheExtension_andNoExtension_areRefused() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        try FileManager.default.createDirectory(atPath: s.tmp.path + "/ext", withIntermediateDirectories: true)
        let inside = try s.pack(["--extension-dir", s.tmp.path + "/ext", "--out", s.tmp.path + "/ext/./dist"])
        #expect(inside.status == 64, "\(inside.stderr)")
        let empty = try s.pack(["--extension-dir", s.tmp.path + "/ext", "--out", s.tmp.path + "/d"])
        #expect(empty.status == 66, "\(empty.stderr)")
        #expect(empty.stderr.contains("no extension at \(s.tmp.path)/ext"))
    }
}

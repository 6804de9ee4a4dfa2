import Testing

@testable import BridgeGenerator

@Suite struct ProjectSpecTests {
    func spec(
        name: String = "ReadLater", host: String = "com.example.readlater", group: String = "group.com.example.rl"
    )
        -> ProjectSpec
    {
        ProjectSpec(name: name, hostName: host, group: group, dependency: .carried)
    }

    @Test func goodAnswers_pass_andDeriveNames() throws {
        let s = spec()
        try s.validate()
        #expect(s.hostProduct == "readlater-host")
        #expect(s.actionsTarget == "ReadLaterActions")
        #expect(s.firefoxID == "readlater@example.com")
        #expect(spec(host: "single").firefoxID == "single@extensionbridge.local")
    }

    @Test(arguments: ["", "9Lives", "Read-Later", "read later", "Ünicode", "a/b", String(repeating: "A", count: 65)])
    func badNames_exit65_namingTheRule(name: String) {
        do {
            try spec(name: name).validate()
            Issue.record("accepted \(name)")
        } catch {
            #expect(error.exitStatus == 65)
            #expect(error.description.contains("Swift identifier"))
        }
    }

    @Test(arguments: [
        "", "Com.Example", ".leading", "trailing.", "two..dots", "with-dash", "with space", "org.extensionbridge.host",
    ])
    func badHostNames_exit65(host: String) {
        do {
            try spec(host: host).validate()
            Issue.record("accepted \(host)")
        } catch {
            #expect(error.exitStatus == 65)
            #expect(error.description.contains("host name"))
        }
    }

    /// `new` refuses up front the names whose Debian package (or system host folder) would take the
    /// distribution's browsers' names or ExtensionBridge's; a `_` counts as the `-` the Debian
    /// package name gets (`Firefox_ESR` would pack as `firefox-esr`).
    @Test(arguments: ["Chromium", "Firefox", "ExtensionBridge", "chrome", "Firefox_ESR", "Extension_Bridge"])
    func namesOfTheDistributionsPackages_exit65(name: String) {
        do {
            try spec(name: name).validate()
            Issue.record("accepted \(name)")
        } catch {
            #expect(error.exitStatus == 65)
            #expect(error.description.contains("package name"), "\(error)")
        }
    }

    /// A bridge's package puts its files in `/usr/share/<name>/` and its host in `/usr/lib/<host name>/`:
    /// `Doc`, `Man` or `Mozilla` would install into folders the system and other packages share.
    @Test(arguments: ["Doc", "Man", "Mozilla", "Info", "Locale", "Icons", "Fonts", "Applications", "Common_Licenses"])
    func namesOfSharedSystemFolders_exit65(name: String) {
        do {
            try spec(name: name).validate()
            Issue.record("accepted \(name)")
        } catch {
            #expect(error.exitStatus == 65)
            let package = String(name.lowercased().map { $0 == "_" ? "-" : $0 })
            #expect(error.description.contains("/usr/share/" + package), "\(error)")
        }
    }

    @Test(arguments: ["mozilla", "systemd", "doc"])
    func hostNamesOfSharedSystemFolders_exit65(host: String) {
        #expect(throws: GeneratorError.self) { try spec(host: host).validate() }
    }

    @Test(arguments: ["chromium", "firefox-esr", "extension-bridge"])
    func hostNamesOfTheDistributionsPackages_exit65(host: String) {
        #expect(throws: GeneratorError.self) { try spec(host: host).validate() }
    }

    @Test(arguments: ["", "../x", "a/b", ".hidden", "with space"])
    func badGroups_exit65(group: String) {
        #expect(throws: GeneratorError.self) { try spec(group: group).validate() }
    }

    /// The message names the rule the group breaks: `-rf` starts with '-', which a command reads as an option.
    @Test(arguments: [
        ("-rf", "it starts with '-'"), (".g", "it starts with '.'"), ("a/b", "it contains '/'"), ("", "it is empty"),
        ("a\u{2028}b", "it contains '\\u2028'"),
    ])
    func aBadGroup_isRefusedNamingTheRuleItBreaks(group: String, rule: String) {
        do {
            try spec(group: group).validate()
            Issue.record("accepted \(group)")
        } catch {
            #expect(error.description.contains(rule), "\(error)")
            #expect(!error.description.contains("\u{2028}"))
        }
    }

    @Test func urlDependency_needsAURLAndAVersion() throws {
        var s = spec()
        s.dependency = .url("https://example.com/extension-bridge.git", exact: "0.1.0")
        try s.validate()
        s.dependency = .url("not a url", exact: "0.1.0")
        #expect(throws: GeneratorError.self) { try s.validate() }
    }

    /// The package identity from the URL and `--from` are checked strictly.
    @Test(arguments: [
        ("https://example.com/x\")]),.target(name: \"Evil", "0.1.0"), ("https://example.com/-x.git", "0.1.0"),
        ("https://example.com/.git", "0.1.0"), ("https://example.com/a b", "0.1.0"),
        ("https://example.com/a\\b", "0.1.0"), ("https://example.com/\u{2028}x", "0.1.0"),
        ("https://example.com/x\u{0}", "0.1.0"), ("https://example.com/x", "0.1.0\")"),
        ("https://example.com/x", "1.0"),
        ("https://example.com/x", "1.0.0-\n"),
    ])
    func hostilePackageURLOrVersion_isRefused(url: String, from: String) {
        var s = spec()
        s.dependency = .url(url, exact: from)
        #expect(throws: GeneratorError.self) { try s.validate() }
    }

    @Test func plainPackageURLs_pass() throws {
        var s = spec()
        for (url, from) in [
            ("https://github.com/acme/extension-bridge.git", "1.2.3"),
            ("git@github.com:acme/ExtensionBridge.git", "0.1.0-beta.1"),
            ("https://example.com/eb", "2.0.0+build.5"),
        ] {
            s.dependency = .url(url, exact: from)
            try s.validate()
        }
    }
}

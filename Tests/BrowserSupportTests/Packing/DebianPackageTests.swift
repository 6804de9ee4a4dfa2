import BridgeSystem
import Foundation
import TestSupport
import Testing

@testable import BrowserSupport

/// The one Debian layout every bridge is packaged with: what dpkg and lintian would refuse is
/// refused before anything is written, and links follow Debian policy.
@Suite struct DebianPackageTests {
    func package(name: String = "linguisticat", version: String = "1.0.0", maintainer: String = "A <a@example.com>")
        -> DebianPackage
    {
        DebianPackage(
            control: DebianPackage.Control(
                name: name, version: version, architecture: "amd64", maintainer: maintainer, summary: "a summary",
                paragraphs: ["one paragraph"]))
    }

    @Test(arguments: ["linguisticat", "extension-bridge", "a0", "g++", "x.y"])
    func packageNames_debianAllows(_ name: String) { #expect(DebianPackage.isPackageName(name)) }

    @Test(arguments: ["", "a", "Linguisticat", "read_later", "-x", "../etc", "a b", "a\nDepends: evil"])
    func packageNames_debianRefuses(_ name: String) { #expect(!DebianPackage.isPackageName(name)) }

    @Test func validate_refusesWhatWouldAddFieldsOrEscapeTheTree() {
        for bad in [
            package(name: "Read_Later"), package(version: "1.0\nDepends: evil"), package(version: "v1"),
            package(maintainer: "nobody"), package(maintainer: "A <a@example.com>\nEssential: yes"),
        ] {
            #expect(throws: PackError.self) { try bad.validate() }
        }
        var escaping = package()
        escaping.add("/usr/share/mozilla/extensions/x/../../../../etc/cron.d/evil", [])
        #expect(throws: PackError.self) { try escaping.validate() }
        var relative = package()
        relative.add("usr/bin/x", [])
        #expect(throws: PackError.self) { try relative.validate() }
        #expect(throws: Never.self) { try package().validate() }
    }

    /// A bridge named `Chromium` built a package named `chromium`, which replaces Debian's browser when
    /// installed: a bridge's package never takes a name of the distribution's browsers (or their parts)
    /// or ExtensionBridge's own; no package built here takes the browsers'.
    @Test func packageNames_ofTheBrowsersAndOurs_areRefused() throws {
        for bridge in ["Chromium", "Firefox", "ExtensionBridge", "Chrome", "Vivaldi"] {
            #expect(throws: PackError.self, "\(bridge)") { try DebianPackage.packageName(ofBridge: bridge) }
        }
        #expect(throws: PackError.self) { try DebianPackage.packageName(ofBridge: "extension-bridge") }
        #expect(throws: PackError.self) { try DebianPackage.packageName(ofBridge: "Read_Later") }
        #expect(try DebianPackage.packageName(ofBridge: "ReadLater") == "readlater")
        for name in ["chromium", "firefox-esr", "chromium-l10n", "firefox-esr-l10n-de", "google-chrome-stable"] {
            #expect(throws: PackError.self, "\(name)") { try package(name: name).validate() }
        }
        #expect(throws: Never.self) { try package(name: DebianPackage.extensionBridgeName).validate() }
    }

    /// The package's files go to `/usr/share/<package>/`: a bridge named after a folder the system
    /// shares (`/usr/share/doc`, `/usr/share/man`, Firefox's `/usr/share/mozilla`) is refused, by name.
    @Test func packageNames_ofFoldersTheSystemShares_areRefused() throws {
        for bridge in ["Doc", "Man", "Mozilla", "Info", "Locale", "Icons"] {
            do {
                _ = try DebianPackage.packageName(ofBridge: bridge)
                Issue.record("accepted \(bridge)")
            } catch {
                #expect(error.description.contains("/usr/share/\(bridge.lowercased())"), "\(error)")
            }
        }
        #expect(try DebianPackage.packageName(ofBridge: "Docket") == "docket")
        #expect(try DebianPackage.packageName(ofBridge: "Manual") == "manual")
    }

    /// A name this system already knows as another maintainer's package (installed, or in its
    /// archives) is refused before anything is staged (the same maintainer's, an older version of
    /// the package, is not: `scripts/e2e/deb-test.sh` rebuilds over an installed one).
    @Test func aPackageThisSystemKnows_ofAnotherMaintainer_isRefused() throws {
        let tools = try DebianTools(searchPath: "/usr/bin:/bin")
        let dpkg = try #require(tools.maintainer(ofKnownPackage: "dpkg"), "dpkg is installed here")
        #expect(tools.maintainer(ofKnownPackage: "linguisticat-not-a-package") == nil)
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        do {
            _ = try package(name: "dpkg").build(into: tmp.path + "/out", timestamp: 0, searchPath: "/usr/bin:/bin")
            Issue.record("a package named dpkg was built")
        } catch {
            #expect(error.description.contains("already knows a package named dpkg"), "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: tmp.path + "/out"), "nothing staged")
        #expect(!dpkg.isEmpty)
    }

    /// Every value written into the control file, `copyright` and the changelog is one line, or
    /// refused: a `copyright` with line breaks added `Files: *` paragraphs of its own.
    @Test func valuesThatAreNotOneLine_areRefused_inEveryDebianFile() throws {
        let breaks = ["\n", "\r", "\u{85}", "\u{2028}", "\u{2029}", "\u{202E}", "\u{7F}", "\t"]
        for mark in breaks {
            let paragraph = "2025 Me" + mark + "Files: *" + mark + "License: public-domain"
            #expect(throws: PackError.self, "\(mark.unicodeScalars.map(\.value))") {
                try DebianPackage.copyright(bridgeName: "ReadLater", holder: paragraph)
            }
            #expect(throws: PackError.self) {
                try DebianPackage.copyright(bridgeName: "Read" + mark + "Files: *", holder: "2025 Me")
            }
            var control = package()
            control.control.summary = "summary" + mark + "Essential: yes"
            #expect(throws: PackError.self) { try control.validate() }
            #expect(throws: PackError.self) {
                try control.changelog(date: "Mon, 1 Jan 2024 00:00:00 +0000", builtWith: "0.1.0")
            }
            var maintainer = package(maintainer: "A <a@example.com>" + mark)
            maintainer.control.paragraphs = ["fine"]
            #expect(throws: PackError.self) { try maintainer.changelog(date: "d", builtWith: "0.1.0") }
            #expect(throws: PackError.self) {
                try package().changelog(date: "Mon" + mark + " -- evil", builtWith: "0.1.0")
            }
            var paragraphs = package()
            paragraphs.control.paragraphs = ["one" + mark + "Depends: evil"]
            #expect(throws: PackError.self) { try paragraphs.validate() }
        }
        #expect(throws: PackError.self) { try DebianPackage.copyright(bridgeName: nil, holder: " ") }
        let text = String(
            decoding: try DebianPackage.copyright(bridgeName: "ReadLater", holder: "2025 Me"), as: UTF8.self)
        #expect(text.components(separatedBy: "\nFiles: ").count == 2, "one Files paragraph")
        let entry = String(
            decoding: try package().changelog(date: "Mon, 1 Jan 2024 00:00:00 +0000", builtWith: "0.1.0"), as: UTF8.self
        )
        #expect(entry.hasPrefix("linguisticat (1.0.0) unstable; urgency=medium\n"))
        #expect(entry.contains("\n -- A <a@example.com>  Mon, 1 Jan 2024 00:00:00 +0000\n"))
    }

    @Test func links_areRelativeWithinATopFolder_absoluteAcrossThem() {
        var deb = package()
        deb.link("/usr/share/chromium/extensions/linguisticat", to: "/usr/share/linguisticat/extension")
        deb.link("/etc/chromium/native-messaging-hosts/h.json", to: "/usr/share/linguisticat/nmh/h.json")
        #expect(
            deb.items["/usr/share/chromium/extensions/linguisticat"] == .link(target: "../../linguisticat/extension"))
        #expect(
            deb.items["/etc/chromium/native-messaging-hosts/h.json"]
                == .link(target: "/usr/share/linguisticat/nmh/h.json"))
    }

    @Test func control_wrapsTheDescription_andNamesEnhancesAndSuggests() {
        var deb = package()
        #expect(!deb.controlText(installedKiB: 12).contains("Suggests:"))
        deb.control.enhances = ["chromium", "firefox-esr"]
        deb.control.suggests = ["openssl", "libsecret-tools"]
        deb.control.paragraphs = [String(repeating: "word ", count: 40), "second"]
        let text = deb.controlText(installedKiB: 12)
        #expect(text.contains("Enhances: chromium, firefox-esr\n"))
        #expect(text.contains("Suggests: openssl, libsecret-tools\n"))
        #expect(text.contains("\n .\n second\n"))
        #expect(text.split(separator: "\n").allSatisfy { $0.count <= 80 })
    }
}

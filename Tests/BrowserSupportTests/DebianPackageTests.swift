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

    @Test func control_wrapsTheDescription_andNamesEnhances() {
        var deb = package()
        deb.control.enhances = ["chromium", "firefox-esr"]
        deb.control.paragraphs = [String(repeating: "word ", count: 40), "second"]
        let text = deb.controlText(installedKiB: 12)
        #expect(text.contains("Enhances: chromium, firefox-esr\n"))
        #expect(text.contains("\n .\n second\n"))
        #expect(text.split(separator: "\n").allSatisfy { $0.count <= 80 })
    }

    @Test func elf_staticOnlyWithoutAnInterpreter() throws {
        // This test binary is a dynamic executable; a static one is checked end to end (deb-test, ldd).
        let me = try FileSystem.readFile(CommandLine.arguments[0], limit: 1 << 30)
        #expect(!ELFExecutable.isStatic(me))
        #expect(!ELFExecutable.isStatic(Array("#!/bin/sh\n".utf8)))
        #expect(!ELFExecutable.isStatic([]))
    }
}

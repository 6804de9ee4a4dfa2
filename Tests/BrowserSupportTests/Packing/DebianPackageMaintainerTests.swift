import BridgeSystem
import Testing

@testable import BrowserSupport

/// Who a package names as its maintainer: the bridge's own, else the person building it, never an
/// address made up for them.
@Suite struct DebianPackageMaintainerTests {
    let packager = Environment(["DEBFULLNAME": "A Packager", "DEBEMAIL": "packager@example.com"])

    func bridge(maintainer: String?) -> BridgeDescription {
        var description = BridgeDescription(
            name: "A", hostName: "com.example.a", group: "group.com.example.a", hostProduct: "a-host",
            version: "1.0.0", extensionFolder: "extension", chromiumID: String(repeating: "c", count: 32),
            firefoxID: "a@example.com")
        description.maintainer = maintainer
        return description
    }

    @Test func builtIn_takesDEBFULLNAMEAndDEBEMAIL() throws {
        #expect(try DebianPackage.maintainer(of: nil, environment: packager) == "A Packager <packager@example.com>")
    }

    @Test func bridge_keepsItsOwn_overThePackager() throws {
        let own = bridge(maintainer: "B <b@example.org>")
        #expect(try DebianPackage.maintainer(of: own, environment: packager) == "B <b@example.org>")
        #expect(
            try DebianPackage.maintainer(of: bridge(maintainer: nil), environment: packager).hasPrefix("A Packager"))
    }

    @Test(arguments: [["DEBFULLNAME": "A Packager"], ["DEBEMAIL": "a@example.com"], [:]])
    func builtIn_withoutBoth_isRefusedNamingThem(_ values: [String: String]) {
        #expect {
            try DebianPackage.maintainer(of: nil, environment: Environment(values))
        } throws: { error in
            "\(error)".contains("set DEBFULLNAME and DEBEMAIL") && !"\(error)".contains("bridge.json")
        }
    }

    @Test func bridge_withoutOne_isRefusedNamingBridgeJSONToo() {
        #expect {
            try DebianPackage.maintainer(of: bridge(maintainer: nil), environment: Environment([:]))
        } throws: { error in
            "\(error)".contains("DEBEMAIL") && "\(error)".contains("\"maintainer\"")
                && "\(error)".contains("bridge.json")
        }
    }
}

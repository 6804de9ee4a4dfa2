import Foundation
import Testing

@testable import BridgeProtocol

/// The extension ships with the host and the CLI: a release bumps `BridgeVersion.current` and the
/// extension's manifest together, or `doctor` and `hello` report one version while the browser shows
/// another.
@Suite struct BridgeVersionTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func extensionManifestVersion_isBridgeVersion() throws {
        let data = try Data(contentsOf: Self.repository.appendingPathComponent("extension/manifest.json"))
        let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(manifest["version"] as? String == BridgeVersion.current)
    }

    @Test func changelog_hasTheCurrentVersionsSection() throws {
        // The Debian package's changelog is that section (scripts/package-deb.sh, pack --changelog):
        // a version bumped without its release notes would fail the package build instead.
        let text = try String(
            contentsOf: Self.repository.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        #expect(text.contains("\n## [\(BridgeVersion.current)] - "))
    }

    @Test func current_isThreeNumbers() {
        // Chromium and Firefox accept one to four dot-separated integers; a release is three.
        let parts = BridgeVersion.current.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3)
        #expect(parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) })
    }
}

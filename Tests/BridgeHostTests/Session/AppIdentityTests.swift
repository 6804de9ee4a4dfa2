import BridgeProtocol
import Testing

@testable import BridgeHost

@Suite struct AppIdentityTests {
    /// A bridge made by `new` is its app's: `--version` names the app and says what it is
    /// built on; the built-in bridge's line is the program and the version alone.
    @Test func versionLine_namesTheAppAndWhatItIsBuiltOn() {
        #expect(
            AppIdentity(name: "Linguisticat", version: "1.0.0").versionLine(program: "linguisticat-host")
                == "linguisticat-host 1.0.0 (Linguisticat, built on ExtensionBridge \(BridgeVersion.current))")
        #expect(
            AppIdentity.extensionBridge.versionLine(program: "extension-bridge-host")
                == "extension-bridge-host \(BridgeVersion.current)")
    }
}

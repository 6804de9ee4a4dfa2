import BridgeSystem
import Foundation
import Testing

@testable import BridgeCLI

@Suite struct RunVerbTests {
    /// `run --config` registers the host for the extension bridge.json names and loads it: a
    /// bridge.json others can write is refused as `install --config` refuses it (77), before any build.
    @Test func run_refusesABridgeJSONOthersCanWrite() throws {
        let h = Harness()
        let config = h.tmp.path + "/bridge.json"
        try FileSystem.writeAtomically(config, utf8: "{}", permissions: 0o644)
        chmod(config, 0o666)
        #expect(h.run("run", "--config", config, "--headless") == 77)
        #expect(h.err.joined().contains(config + " is writable by every user"), "\(h.err)")
    }
}

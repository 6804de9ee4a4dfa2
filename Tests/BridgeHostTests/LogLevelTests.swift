import Testing

@testable import BridgeHost

@Suite struct LogLevelTests {
    /// The configuration file's `log =` and `EXTENSION_BRIDGE_LOG`, in any case; `warning`
    /// is `warn`.
    @Test func names_parseInAnyCase() {
        #expect(LogLevel(name: "ERROR") == .error)
        #expect(LogLevel(name: "warn") == .warn && LogLevel(name: "Warning") == .warn)
        #expect(LogLevel(name: "info") == .info && LogLevel(name: "debug") == .debug)
        #expect(LogLevel(name: "verbose") == nil && LogLevel(name: "") == nil)
    }

    /// Quietest first: a logger at `warn` writes errors and warnings only.
    @Test func order_quietestFirst() {
        #expect(LogLevel.error < .warn && LogLevel.warn < .info && LogLevel.info < .debug)
    }
}

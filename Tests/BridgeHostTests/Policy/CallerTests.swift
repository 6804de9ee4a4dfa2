import Testing

@testable import BridgeHost

@Suite struct CallerTests {
    /// Chromium passes the origin first (on Windows a `--parent-window=N` too); Firefox the
    /// manifest's path, then the add-on id; a person starting the host passes neither.
    @Test func arguments_tellTheBrowserAndWhoCalled() {
        #expect(
            Caller(arguments: ["chrome-extension://abc//"])
                == Caller(kind: .chromium, identity: "chrome-extension://abc/"))
        #expect(
            Caller(arguments: ["--parent-window=7", "chrome-extension://abc/"])
                == Caller(kind: .chromium, identity: "chrome-extension://abc/"))
        #expect(
            Caller(arguments: ["/usr/lib/mozilla/native-messaging-hosts/h.json", "addon@example.org"])
                == Caller(kind: .firefox, identity: "addon@example.org"))
        #expect(Caller(arguments: ["h.json", "addon@example.org"]).kind == .firefox)
        #expect(Caller(arguments: []) == Caller(kind: .unknown, identity: "unknown"))
        #expect(Caller(arguments: ["addon@example.org"]) == Caller(kind: .unknown, identity: "unknown"))
        #expect(Caller(arguments: ["relative", "addon@example.org"]).kind == .unknown)
    }
}

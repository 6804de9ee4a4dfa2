import BridgeSystem
import Testing

@testable import BridgeHost

@Suite struct CallerPolicyTests {
    @Test func caller_chromiumOrigin_isNormalized() {
        #expect(
            Caller(arguments: ["chrome-extension://abc"])
                == Caller(kind: .chromium, identity: "chrome-extension://abc/"))
        #expect(
            Caller(arguments: ["chrome-extension://abc/", "--parent-window=0"])
                == Caller(kind: .chromium, identity: "chrome-extension://abc/"))
    }

    @Test func caller_firefox_isManifestPathThenAddonID() {
        #expect(
            Caller(arguments: ["/home/u/.mozilla/native-messaging-hosts/org.extensionbridge.host.json", "a@b.org"])
                == Caller(kind: .firefox, identity: "a@b.org"))
    }

    @Test func caller_noArguments_isUnknown() {
        #expect(Caller(arguments: []) == Caller(kind: .unknown, identity: "unknown"))
    }

    @Test func parse_acceptsLinesCommasAndComments() {
        #expect(
            CallerPolicy.parse("# installed\nchrome-extension://abc\n  a@b.org , c@d.org # firefox\n\n")
                == ["chrome-extension://abc/", "a@b.org", "c@d.org"])
        #expect(CallerPolicy.parse("x@y,x@y\r\n\t z@w \t#,q@r") == ["x@y", "z@w"])
    }

    @Test func load_environmentReplacesFile() {
        let policy = CallerPolicy.load(
            environment: Environment(["EXTENSION_BRIDGE_ALLOWED_CALLERS": "x@y"]), executablePath: "/nonexistent/host")
        #expect(policy.allows(Caller(kind: .firefox, identity: "x@y")))
        #expect(!policy.allows(Caller(kind: .chromium, identity: "chrome-extension://abc/")))
    }

    @Test func load_noFile_allowsNobody() {
        let policy = CallerPolicy.load(environment: Environment([:]), executablePath: "/nonexistent/host")
        #expect(policy.allowed.isEmpty)
        #expect(!policy.allows(Caller(kind: .unknown, identity: "unknown")))
    }
}

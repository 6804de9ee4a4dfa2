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
}

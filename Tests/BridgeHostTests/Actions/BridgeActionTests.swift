import Testing

@testable import BridgeHost

@Suite struct BridgeActionTests {
    /// An app's action that declares nothing is not sent again after a dropped port (it might
    /// append twice) and starts no pushes.
    @Test func defaults_neitherResendSafeNorStartingPushes() {
        let action = EchoAction()
        #expect(!action.resendSafe)
        #expect(!action.startsChangeNotifications)
        #expect(HelloAction.resendSafeNames(of: [action]) == ["hello"])
    }
}

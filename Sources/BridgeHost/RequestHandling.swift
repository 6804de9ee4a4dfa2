import BridgeJSON

/// Something that answers one message with one reply, with no transport.
///
/// The counterpart of `NSExtensionRequestHandling`: on macOS a
/// `SafariWebExtensionHandler.beginRequest(with:)` can take the message out
/// of `userInfo[SFExtensionMessageKey]`, call `handle`, and complete the
/// request with the reply under the same key; on every other browser the
/// native-messaging session calls it once per frame.
public protocol RequestHandling {
    /// Answers `message` (a decoded JSON value) with a reply object.
    func handle(_ message: JSONValue) -> JSONValue
}

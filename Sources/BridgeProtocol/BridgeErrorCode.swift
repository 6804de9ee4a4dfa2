/// The stable error codes sent to the extension. Append-only: never rename
/// or reuse one (docs/PROTOCOL.md lists them).
public enum BridgeErrorCode: String, Sendable, CaseIterable {
    case invalidJSON = "invalid_json"
    case invalidUTF8 = "invalid_utf8"
    case notAnObject = "not_an_object"
    case tooDeep = "too_deep"
    case messageTooLarge = "message_too_large"
    case replyTooLarge = "reply_too_large"
    case unknownAction = "unknown_action"
    case invalidRequest = "invalid_request"
    case missingField = "missing_field"
    case callerNotAllowed = "caller_not_allowed"
    case suiteUnreadable = "suite_unreadable"
    case contentTooLarge = "content_too_large"
    case queueFull = "queue_full"
    case storageError = "storage_error"
    case internalError = "internal_error"
    /// No Secret Service or Keychain answered (`getSecret`, `extension-bridge secret`).
    case secretsUnavailable = "secrets_unavailable"
    /// `getSecret` of a name with no secret in the group.
    case secretNotFound = "secret_not_found"
    /// `getSecret` of a secret not marked `--shared`.
    case secretNotShared = "secret_not_shared"
    /// `saveContent` of a URL whose scheme is not queued (`javascript:`, `data:`, …).
    case urlSchemeNotAllowed = "url_scheme_not_allowed"
    /// `removeItem` of an item that is no longer waiting (drained or removed).
    case itemNotFound = "item_not_found"
    /// `removeItem` of an item a `queue drain` or `queue watch` is handing over
    /// at this moment: it may reach the app; not removed.
    case itemBeingHandedOver = "item_being_handed_over"
    /// An app's action that is declared but not written yet (the actions `new --from-safari`
    /// makes for each message the imported extension sends, until the author writes them).
    case notImplemented = "not_implemented"
}

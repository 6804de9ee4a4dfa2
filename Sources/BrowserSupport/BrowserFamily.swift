/// A browser family: which manifest shape it reads.
public enum BrowserFamily: String, Equatable, Sendable {
    /// `allowed_origins` with `chrome-extension://ID/`.
    case chromium
    /// `allowed_extensions` with add-on ids.
    case firefox
}

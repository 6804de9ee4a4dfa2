import BridgeJSON
import BridgeSystem
import SharedSuite

/// The settings and rules as the extension sees them (`getSettings`,
/// `getContent`, `settingsChanged`), encoded once per suite version: while
/// the file's identity stays the same, a port asking again copies bytes.
/// Each part is encoded when first asked for, so `getSettings` never pays
/// for a large vocabulary.
public final class PublishedState {
    private var identity: FileIdentity?
    private var settings: EncodedJSON?
    private var rules: EncodedJSON?

    public init() {}

    /// `{"enabled":…,"theme":…}` of `snapshot`.
    public func settings(of snapshot: SuiteSnapshot) -> EncodedJSON {
        forget(unlessSameVersionAs: snapshot)
        if let settings { return settings }
        let encoded = SettingsKeys.encodedSettings(snapshot)
        if snapshot.identity != nil { settings = encoded }
        return encoded
    }

    /// `{"vocabulary":{…}}` of `snapshot`.
    public func rules(of snapshot: SuiteSnapshot) -> EncodedJSON {
        forget(unlessSameVersionAs: snapshot)
        if let rules { return rules }
        let encoded = SettingsKeys.encodedRules(snapshot)
        if snapshot.identity != nil { rules = encoded }
        return encoded
    }

    /// Settings and rules together, for comparing versions (`settingsChanged`).
    public func both(of snapshot: SuiteSnapshot) -> [EncodedJSON] { [settings(of: snapshot), rules(of: snapshot)] }

    private func forget(unlessSameVersionAs snapshot: SuiteSnapshot) {
        guard snapshot.identity == nil || snapshot.identity != identity else { return }
        identity = snapshot.identity
        settings = nil
        rules = nil
    }
}

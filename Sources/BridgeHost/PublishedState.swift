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
        return PublishedState.cached(&settings, of: snapshot, SettingsKeys.encodedSettings)
    }

    /// `{"vocabulary":{…}}` of `snapshot`.
    public func rules(of snapshot: SuiteSnapshot) -> EncodedJSON {
        forget(unlessSameVersionAs: snapshot)
        return PublishedState.cached(&rules, of: snapshot, SettingsKeys.encodedRules)
    }

    /// `slot`, or `encode(snapshot)` kept there when the snapshot has a file
    /// version. (An `inout` slot, not a key path: key paths instantiate
    /// metadata on a one-shot host's start-up.)
    private static func cached(
        _ slot: inout EncodedJSON?, of snapshot: SuiteSnapshot, _ encode: (SuiteSnapshot) -> EncodedJSON
    ) -> EncodedJSON {
        if let slot { return slot }
        let encoded = encode(snapshot)
        if snapshot.identity != nil { slot = encoded }
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

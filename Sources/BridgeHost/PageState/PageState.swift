import BridgeJSON
import BridgeSystem
import SharedSuite

/// The one page-state contract on the host: what the extension sees of the
/// suite — the public settings, the rules, and the page state a content script
/// applies (`enabled` and the rules in pages with their `rulesVersion`) — built
/// from a snapshot, in one place:
///
/// - **one cache**, keyed by the suite's change token: while the token stays
///   the same, `getSettings`, `getContent`, every page of `getPageState` and the
///   push copy bytes. Each part is built when first asked for, so `getSettings`
///   never pays for a large vocabulary;
/// - **one rule for which entries count** (`entries(of:)`): the string values
///   of `vocabulary` with a non-empty word, in UTF-8 key order — the rules sent,
///   their pages, and `transform`'s built-in rules alike;
/// - **one writer** for its JSON (`JSONObjectWriter`, through `EncodedJSON`);
/// - **one state** for pull and push: the push (`event(of:replyLimit:)`) is page
///   0 of `getPageState` (`reply(page:of:replyLimit:)`) plus the settings, so the
///   extension applies it without asking again when the rules fit one frame, and
///   asks only for the pages after it when they do not.
///
/// One instance serves every copy of the action context of a host process.
public final class PageState {
    private var version: ChangeToken?
    private var settings: EncodedJSON?
    private var rules: EncodedJSON?
    private var split: (budget: Int, split: RulesPages.Split)?

    public init() {}

    // MARK: The parts, cached per suite version

    /// `{"enabled":…,"theme":…}` of `snapshot`.
    public func settings(of snapshot: SuiteSnapshot) -> EncodedJSON {
        forget(unlessSameVersionAs: snapshot)
        if let settings { return settings }
        let encoded = PageState.encodedSettings(snapshot)
        if snapshot.version != nil { settings = encoded }
        return encoded
    }

    /// `{"vocabulary":{…}}` of `snapshot`: every entry that counts, whether or
    /// not the extension is on (`getContent`).
    public func rules(of snapshot: SuiteSnapshot) -> EncodedJSON {
        forget(unlessSameVersionAs: snapshot)
        if let rules { return rules }
        let encoded = PageState.encodedRules(snapshot)
        if snapshot.version != nil { rules = encoded }
        return encoded
    }

    /// The rules a page applies, in pages of at most `budget` bytes: switched
    /// off, one empty page and no version (no rules leave the host then).
    public func pages(of snapshot: SuiteSnapshot, budget: Int) -> RulesPages.Split {
        guard SuiteKeys.isEnabled(snapshot) else { return PageState.off }
        let rules = self.rules(of: snapshot)  // forgets an older version's split too
        if let split, split.budget == budget { return split.split }
        // Rules of more than one page are copied (or written) again with their entries indexed
        // as they go (`IndexedJSON`); a reply that only sends them does without the index.
        let fresh =
            RulesPages.whole(rules, budget: budget)
            ?? RulesPages.split(PageState.indexedRules(snapshot), budget: budget)
        if snapshot.version != nil { split = (budget, fresh) }
        return fresh
    }

    private static let off = RulesPages.Split(
        pages: [
            EncodedJSON.object { object, out in
                object.member("vocabulary", .object([:]), into: &out)
            }
        ], version: "", undeliverable: 0)

    private func forget(unlessSameVersionAs snapshot: SuiteSnapshot) {
        guard snapshot.version == nil || snapshot.version != version else { return }
        version = snapshot.version
        settings = nil
        rules = nil
        split = nil
    }

    // MARK: Pull and push

    /// The `getPageState` reply for `page`, or an error naming the pages there are.
    public func reply(page: Int, of snapshot: SuiteSnapshot, replyLimit: Int) -> BridgeReply {
        let enabled = SuiteKeys.isEnabled(snapshot)
        let split = pages(of: snapshot, budget: RulesPages.budget(forReplyLimit: replyLimit))
        guard page < split.pages.count else {
            let what = enabled ? "the rules have \(split.pages.count) page(s)" : "switched off, the rules have 1 page"
            return .error(
                .invalidRequest, "page \(page) does not exist: \(what)",
                ["pages": .int(split.pages.count), "rulesVersion": .string(split.version)])
        }
        var reply = BridgeReply.success(PageState.fields(enabled: enabled, page: page, of: split))
        reply.set("rules", encoded: split.pages[page])
        return reply
    }

    /// What a push says, and what makes two pushes the same state.
    public struct Event {
        /// `pageState`: page 0 of `getPageState` (its rules, and `pages`: the
        /// extension fetches the others) and the settings. The rules are left
        /// out only when page 0 and the settings do not fit one frame together
        /// (a very long theme): the extension then fetches page 0 as well.
        public var reply: BridgeReply
        /// Equal for states the extension cannot tell apart.
        public var identity: Identity
    }

    /// The settings, `enabled`, and the rules' version: all a push can change.
    public struct Identity: Equatable {
        var settings: EncodedJSON
        var rulesVersion: String
        var undeliverable: Int
    }

    /// The push for `snapshot`: page 0 of `getPageState`, and the settings.
    public func event(of snapshot: SuiteSnapshot, replyLimit: Int) -> Event {
        let settings = self.settings(of: snapshot)
        let enabled = SuiteKeys.isEnabled(snapshot)
        let split = pages(of: snapshot, budget: RulesPages.budget(forReplyLimit: replyLimit))
        var reply = BridgeReply(PageState.fields(enabled: enabled, page: 0, of: split))
        reply.set("settings", encoded: settings)
        reply["event"] = "pageState"
        // Page 0 fits a reply less the overhead; with the settings (a long theme) it may not.
        if split.pages[0].bytes.count + settings.bytes.count < replyLimit - 512 {
            reply.set("rules", encoded: split.pages[0])
        }
        return Event(
            reply: reply,
            identity: Identity(settings: settings, rulesVersion: split.version, undeliverable: split.undeliverable))
    }

    private static func fields(enabled: Bool, page: Int, of split: RulesPages.Split) -> [String: JSONValue] {
        [
            "enabled": .bool(enabled), "page": .int(page), "pages": .int(split.pages.count),
            "rulesVersion": .string(split.version), "undeliverable": .int(split.undeliverable),
        ]
    }

    // MARK: The rule and the shapes

    /// The entries that count, in UTF-8 key order: the string values of the
    /// suite's `vocabulary` whose word is not empty. The one rule for the
    /// rules sent to pages and for `transform`.
    public static func entries(of snapshot: SuiteSnapshot) -> [(word: String, replacement: String)] {
        var entries: [(word: String, replacement: String)] = []
        for (word, value) in snapshot.dictionary(SuiteKeys.vocabulary) ?? [:] {
            if case .string(let replacement) = value, !word.isEmpty { entries.append((word, replacement)) }
        }
        entries.sort { JSONWriter.utf8Precedes($0.word, $1.word) }
        return entries
    }

    /// `settings` as `getSettings`, `setSettings` and the push send them.
    public static func settingsValue(_ snapshot: SuiteSnapshot) -> JSONValue {
        .object(["enabled": .bool(SuiteKeys.isEnabled(snapshot)), "theme": .string(SuiteKeys.theme(snapshot))])
    }

    /// `settingsValue`, encoded field by field (no dictionary to build and
    /// sort on a one-shot host's path), by the writer's own object writer.
    public static func encodedSettings(_ snapshot: SuiteSnapshot) -> EncodedJSON {
        EncodedJSON.object(reservingCapacity: 48) { object, out in
            object.member("enabled", .bool(SuiteKeys.isEnabled(snapshot)), into: &out)
            object.member("theme", .string(SuiteKeys.theme(snapshot)), into: &out)
        }
    }

    /// `{"vocabulary":{…}}` of the entries that count. A vocabulary stored
    /// plainly in the file (as the CLI writes it: `StringMapShape`) is copied
    /// from the file's bytes into the wrapper; any other is decoded, filtered
    /// by `entries(of:)` and written.
    public static func encodedRules(_ snapshot: SuiteSnapshot) -> EncodedJSON {
        if let rules = snapshot.encodedStringDictionary(SuiteKeys.vocabulary, nestedUnder: "vocabulary") {
            return rules
        }
        return indexedRules(snapshot).json
    }

    /// `encodedRules` with its entries indexed (`IndexedJSON`) for `RulesPages`:
    /// noted as they are copied from the file, or as they are written.
    public static func indexedRules(_ snapshot: SuiteSnapshot) -> IndexedJSON {
        if let rules = snapshot.indexedStringDictionary(SuiteKeys.vocabulary, nestedUnder: "vocabulary") {
            return rules
        }
        let entries = PageState.entries(of: snapshot)
        let size = entries.reduce(32) { $0 + $1.word.utf8.count + $1.replacement.utf8.count + 6 }
        return IndexedJSON.object(reservingCapacity: size) { object, out in
            object.key("vocabulary", into: &out)
            var vocabulary = JSONObjectWriter(into: &out, level: 1)
            var members: [Range<Int>] = []
            members.reserveCapacity(entries.count)
            for entry in entries {
                members.append(vocabulary.member(entry.word, .string(entry.replacement), into: &out))
            }
            vocabulary.finish(into: &out)
            return members
        }
    }
}

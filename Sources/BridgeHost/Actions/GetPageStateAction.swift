import BridgeJSON
import SharedSuite

/// `getPageState {page?, rulesVersion?}`: what a content script needs to
/// rewrite a page — `enabled` and the rules — and nothing else: it never
/// reads the pending queue.
///
/// Rules that fit one reply come as page 0 of 1. Larger ones are split into
/// pages of whole entries, each reply under the browsers' 1 MiB, all tagged
/// with the same `rulesVersion` (a hash of the complete rules): a client asks
/// for pages 1…N-1 and starts again when a version differs. An entry too big
/// for any page is left out and counted in `undeliverable`.
public struct GetPageStateAction: BridgeAction {
    public let name = "getPageState"
    /// The pages of the last rules seen, shared by every copy of the action
    /// (one host process serves many pages of the same version).
    private let cache = RulesPages.Cache()

    public init() {}

    public func perform(_ request: BridgeRequest, in context: ActionContext) -> BridgeReply {
        var page = 0
        if let value = request["page"] {
            guard let number = value.intValue, number >= 0 else {
                return .error(.invalidRequest, "page must be a whole number from 0")
            }
            page = number
        }
        do throws(SuiteError) {
            let snapshot = try context.suite.snapshot()
            // Switched off: no rules and no version of them. A content script
            // of any tab or frame may ask (docs/SECURITY.md, threat model).
            guard SuiteKeys.isEnabled(snapshot) else {
                guard page == 0 else {
                    return .error(
                        .invalidRequest, "page \(page) does not exist: switched off, the rules have 1 page",
                        ["pages": .int(1), "rulesVersion": .string("")])
                }
                return .success([
                    "enabled": .bool(false), "page": .int(0), "pages": .int(1), "rulesVersion": .string(""),
                    "undeliverable": .int(0), "rules": .object(["vocabulary": .object([:])]),
                ])
            }
            let rules = context.published.rules(of: snapshot)
            let pages = cache.pages(
                for: rules, of: snapshot, budget: RulesPages.budget(forReplyLimit: context.maxReplyBytes))
            guard page < pages.pages.count else {
                return .error(
                    .invalidRequest, "page \(page) does not exist: the rules have \(pages.pages.count) page(s)",
                    ["pages": .int(pages.pages.count), "rulesVersion": .string(pages.version)])
            }
            var reply = BridgeReply.success([
                "enabled": .bool(SuiteKeys.isEnabled(snapshot)), "page": .int(page),
                "pages": .int(pages.pages.count), "rulesVersion": .string(pages.version),
                "undeliverable": .int(pages.undeliverable),
            ])
            reply.set("rules", encoded: pages.pages[page])
            return reply
        } catch {
            context.logger.warn("getPageState: \(error)")
            return .failure(error)
        }
    }
}

/// Splits encoded rules (`{"vocabulary":{…}}`) into pages that each fit a reply.
public enum RulesPages {
    /// Room left in a reply for everything but the rules (status, ids, counts).
    public static let replyOverhead = 1_024

    /// The rules bytes one page may hold under a reply limit.
    public static func budget(forReplyLimit limit: Int) -> Int { max(64, limit - replyOverhead) }

    /// Rules cut into pages, with the version they were cut from.
    public struct Split: Equatable, Sendable {
        public var pages: [EncodedJSON]
        /// FNV-1a 64 of the complete rules, in hex.
        public var version: String
        /// Entries bigger than a page on their own, left out.
        public var undeliverable: Int
    }

    /// `rules` as one page when it fits `budget`, otherwise its vocabulary's
    /// entries in key order, packed into pages of at most `budget` bytes.
    public static func split(_ rules: EncodedJSON, of snapshot: SuiteSnapshot, budget: Int) -> Split {
        let version = fnv1a(rules.bytes)
        if rules.bytes.count <= budget { return Split(pages: [rules], version: version, undeliverable: 0) }
        // The encoded rules are the writer's compact text, keys in order: cut
        // them between entries without decoding anything.
        guard let ranges = entryRanges(rules.bytes) else {
            return pack(entriesDecoded(from: snapshot), budget: budget, version: version)
        }
        return rules.bytes.withUnsafeBufferPointer { buffer in
            pack(ranges.lazy.map { Array(buffer[$0]) }, budget: budget, version: version)
        }
    }

    private static let head = Array(#"{"vocabulary":{"#.utf8)
    private static let tail = Array("}}".utf8)

    /// The byte ranges of `"key":"value"` in `{"vocabulary":{…}}` written
    /// compactly with string values; nil for any other shape.
    static func entryRanges(_ bytes: [UInt8]) -> [Range<Int>]? {
        guard bytes.count >= head.count + tail.count, Array(bytes.prefix(head.count)) == head,
            Array(bytes.suffix(tail.count)) == tail
        else { return nil }
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        let end = bytes.count - tail.count
        var ranges: [Range<Int>] = []
        var i = head.count
        /// The index after the string starting at `j`, or nil.
        func skipString(_ j: Int) -> Int? {
            guard j < end, bytes[j] == quote else { return nil }
            var k = j + 1
            while k < end {
                if bytes[k] == backslash {
                    k += 2
                } else if bytes[k] == quote {
                    return k + 1
                } else {
                    k += 1
                }
            }
            return nil
        }
        while i < end {
            let start = i
            guard let afterKey = skipString(i), afterKey < end, bytes[afterKey] == UInt8(ascii: ":"),
                let afterValue = skipString(afterKey + 1)
            else { return nil }
            ranges.append(start..<afterValue)
            i = afterValue
            if i < end {
                guard bytes[i] == UInt8(ascii: ",") else { return nil }
                i += 1
            }
        }
        return ranges
    }

    /// Every `"key":"value"` of the snapshot's vocabulary, encoded, in key order.
    static func entriesDecoded(from snapshot: SuiteSnapshot) -> [[UInt8]] {
        var entries: [(String, [UInt8])] = []
        for (word, value) in snapshot.dictionary(SuiteKeys.vocabulary) ?? [:] {
            guard case .string(let replacement) = value, !word.isEmpty else { continue }
            var pair: [UInt8] = []
            JSONWriter.writeString(word, into: &pair)
            pair.append(UInt8(ascii: ":"))
            JSONWriter.writeString(replacement, into: &pair)
            entries.append((word, pair))
        }
        entries.sort { JSONWriter.utf8Precedes($0.0, $1.0) }
        return entries.map { $0.1 }
    }

    /// Packs encoded entries into pages of at most `budget` bytes.
    static func pack<Entries: Sequence>(_ entries: Entries, budget: Int, version: String) -> Split
    where Entries.Element == [UInt8] {
        var pages: [EncodedJSON] = []
        var undeliverable = 0
        var current = head
        for pair in entries {
            if head.count + pair.count + tail.count > budget {
                undeliverable += 1
                continue
            }
            let separator = current.count > head.count ? 1 : 0
            if current.count + separator + pair.count + tail.count > budget {
                pages.append(EncodedJSON(writtenAsTheWriterWould: current + tail))
                current = head
            } else if separator == 1 {
                current.append(UInt8(ascii: ","))
            }
            current.append(contentsOf: pair)
        }
        if current.count > head.count || pages.isEmpty {
            pages.append(EncodedJSON(writtenAsTheWriterWould: current + tail))
        }
        return Split(pages: pages, version: version, undeliverable: undeliverable)
    }

    /// FNV-1a, 64 bits, as 16 hex digits.
    public static func fnv1a(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The last split, kept while the rules bytes stay the same.
    public final class Cache {
        private var rules: EncodedJSON?
        private var budget = 0
        private var split: Split?

        public init() {}

        func pages(for rules: EncodedJSON, of snapshot: SuiteSnapshot, budget: Int) -> Split {
            if let split, budget == self.budget, rules == self.rules { return split }
            let fresh = RulesPages.split(rules, of: snapshot, budget: budget)
            self.rules = rules
            self.budget = budget
            split = fresh
            return fresh
        }
    }
}

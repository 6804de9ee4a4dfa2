import BridgeJSON

/// Cuts encoded rules (`{"vocabulary":{…}}`, written or copied with its
/// entries indexed: `IndexedJSON`) into pages that each fit a reply: runs of
/// whole entries copied from the rules' own bytes, inside the same wrapper,
/// written by the one object writer. Nothing is parsed or scanned again.
public enum RulesPages {
    /// Room left in a reply for everything but the rules (status, ids, counts, settings).
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

    /// `rules` as one page when it fits `budget` (no index needed), else nil.
    public static func whole(_ rules: EncodedJSON, budget: Int) -> Split? {
        guard rules.bytes.count <= budget else { return nil }
        return Split(pages: [rules], version: fnv1a(rules.bytes), undeliverable: 0)
    }

    /// `rules` as one page when it fits `budget`, otherwise its vocabulary's
    /// entries in key order, packed into pages of at most `budget` bytes.
    public static func split(_ indexed: IndexedJSON, budget: Int) -> Split {
        let rules = indexed.json
        if let whole = whole(rules, budget: budget) { return whole }
        let version = fnv1a(rules.bytes)
        let entries = indexed.members
        let frame = page(of: rules.bytes, runs: []).bytes.count  // {"vocabulary":{}}
        var pages: [EncodedJSON] = []
        var undeliverable = 0
        var runs: [(range: Range<Int>, count: Int)] = []  // of the page being filled
        var size = frame
        for entry in entries {
            if frame + entry.count > budget {
                undeliverable += 1
                continue
            }
            let separator = runs.isEmpty ? 0 : 1
            if size + separator + entry.count > budget {
                pages.append(page(of: rules.bytes, runs: runs))
                runs = []
                size = frame
            }
            size += (runs.isEmpty ? 0 : 1) + entry.count
            if let last = runs.last, last.range.upperBound + 1 == entry.lowerBound {
                runs[runs.count - 1] = (last.range.lowerBound..<entry.upperBound, last.count + 1)  // the next entry
            } else {
                runs.append((entry, 1))
            }
        }
        if !runs.isEmpty || pages.isEmpty { pages.append(page(of: rules.bytes, runs: runs)) }
        return Split(pages: pages, version: version, undeliverable: undeliverable)
    }

    /// `{"vocabulary":{…}}` of the runs of entries of `bytes`, in order.
    private static func page(of bytes: [UInt8], runs: [(range: Range<Int>, count: Int)]) -> EncodedJSON {
        let size = runs.reduce(32) { $0 + $1.range.count + 1 }
        return EncodedJSON.object(reservingCapacity: size) { object, out in
            object.key("vocabulary", into: &out)
            var vocabulary = JSONObjectWriter(into: &out, level: 1)
            for run in runs { vocabulary.members(encoded: bytes[run.range], count: run.count, into: &out) }
            vocabulary.finish(into: &out)
        }
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
}

import BridgeJSON

/// Where each top-level value of a checked suite file is.
///
/// Keys that are plain ASCII in the file are kept as ranges of its text,
/// sorted by their bytes: a lookup is a binary search, and indexing builds no
/// string and hashes nothing per key (a 1,000-key suite is read on every
/// change). When some key is escaped or not ASCII, the index is a dictionary
/// of the decoded keys instead, because a Swift `String` compares by
/// canonical equivalence and bytes do not.
struct SuiteIndex: Sendable {
    /// Where a top-level value's JSON text is in the file.
    struct Slot: Equatable, Sendable {
        var range: Range<Int>
        /// The value is an object of strings stored as the writer writes one
        /// (`StringMapShape`): its text, without white space, is its encoding.
        var isCanonicalStringMap: Bool
    }

    /// A key of `values` as it is in the file: the text inside its quotes.
    struct Key: Sendable {
        var range: Range<Int>
        /// No escape and no byte outside ASCII: the text is the key.
        var plainASCII: Bool

        /// The key as a string.
        func string(in bytes: UnsafeBufferPointer<UInt8>) -> String {
            if plainASCII { return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
            var reader = JSONReader(bytes)
            reader.reset(to: JSONReader.Mark(offset: range.lowerBound - 1, depth: 0))
            return (try? reader.readString()) ?? ""  // checked when it was first read
        }
    }

    struct Entry: Sendable {
        var key: Key
        var slot: Slot
    }

    /// Plain keys, strictly increasing by bytes (the last of a repeated key kept).
    private var sorted: [Entry] = []
    /// Every key, when some key is not plain.
    private var named: [String: Slot]?

    /// The index of `entries` (file order) of the file `bytes`.
    init(_ entries: [Entry], in bytes: UnsafeBufferPointer<UInt8>) {
        guard entries.allSatisfy({ $0.key.plainASCII }) else {
            var named = [String: Slot](minimumCapacity: entries.count)
            for entry in entries { named[entry.key.string(in: bytes)] = entry.slot }  // the last wins
            self.named = named
            return
        }
        var inOrder = true
        for i in entries.indices.dropFirst()
        where !UTF8Order.precedes(entries[i - 1].key.range, entries[i].key.range, in: bytes) {
            inOrder = false
            break
        }
        if inOrder {  // as the writer writes them
            sorted = entries
            return
        }
        // Stable by position, so among equal keys the last in the file comes last.
        let order = entries.indices.sorted {
            let a = entries[$0].key.range
            let b = entries[$1].key.range
            return UTF8Order.precedes(a, b, in: bytes) || (!UTF8Order.precedes(b, a, in: bytes) && $0 < $1)
        }
        for (n, i) in order.enumerated() {
            let next = n + 1 < order.count ? order[n + 1] : nil
            if let next, !UTF8Order.precedes(entries[i].key.range, entries[next].key.range, in: bytes) { continue }
            sorted.append(entries[i])
        }
    }

    var count: Int { named?.count ?? sorted.count }

    /// The slot of `key`.
    func slot(_ key: String, in bytes: UnsafeBufferPointer<UInt8>) -> Slot? {
        if let named { return named[key] }
        var key = key
        return key.withUTF8 { query -> Slot? in
            if query.contains(where: { $0 >= 0x80 }) {
                // Only a string comparison can say whether this equals an ASCII key (U+212A is "K").
                let wanted = String(decoding: query, as: UTF8.self)
                return sorted.last { $0.key.string(in: bytes) == wanted }?.slot
            }
            var low = 0
            var high = sorted.count
            while low < high {
                let mid = (low + high) / 2
                let order = UTF8Order.compare(UnsafeBufferPointer(rebasing: bytes[sorted[mid].key.range]), query)
                if order == 0 { return sorted[mid].slot }
                if order < 0 { low = mid + 1 } else { high = mid }
            }
            return nil
        }
    }

    /// Every key and slot.
    func forEach(in bytes: UnsafeBufferPointer<UInt8>, _ body: (String, Slot) -> Void) {
        if let named {
            for (key, slot) in named { body(key, slot) }
        } else {
            for entry in sorted { body(entry.key.string(in: bytes), entry.slot) }
        }
    }
}

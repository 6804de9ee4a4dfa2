import Testing

@testable import BridgeJSON

/// Keys and strings with what the writer escapes, non-ASCII, and NFC/NFD pairs.
private let keyPieces = [
    "a", "b", "Z", "0", "é", "e\u{301}", "中", "😀", "\"", "\\", "\n", "\u{1}", "\u{1f}", "\u{2028}", "",
]

private func randomKey(_ random: inout SplitMix) -> String {
    var s = ""
    for _ in 0..<random.below(4) { s += keyPieces[random.below(keyPieces.count)] }
    return s
}

private func randomValue(_ random: inout SplitMix, depth: Int) -> JSONValue {
    switch random.below(depth > 2 ? 5 : 7) {
    case 0: return .null
    case 1: return .bool(random.below(2) == 0)
    case 2: return .int(Int(truncatingIfNeeded: random.next()) >> random.below(64))
    case 3: return .double(Double(Int64(truncatingIfNeeded: random.next()) >> 20) / 7)
    case 4: return .string(randomKey(&random))
    case 5: return .array((0..<random.below(4)).map { _ in randomValue(&random, depth: depth + 1) })
    default: return randomObject(&random, depth: depth + 1)
    }
}

private func randomObject(_ random: inout SplitMix, depth: Int) -> JSONValue {
    var members: [String: JSONValue] = [:]
    for _ in 0..<random.below(depth == 0 ? 30 : 5) { members[randomKey(&random)] = randomValue(&random, depth: depth) }
    return .object(members)
}

@Suite struct JSONObjectWriterTests {
    /// An object written member by member — each member a value, encoded text
    /// copied, encoded text left as a shared piece, or a run of members
    /// encoded earlier — is exactly what `JSONWriter` writes for it.
    @Test func everyKindOfMember_givesTheWritersBytes() {
        var random = SplitMix(seed: 27)
        for _ in 0..<400 {
            guard case .object(let members) = randomObject(&random, depth: 0) else { continue }
            let keys = members.keys.sorted(by: JSONWriter.utf8Precedes)
            var pieces: [[UInt8]] = []
            var out: [UInt8] = []
            var object = JSONObjectWriter(into: &out)
            var i = 0
            while i < keys.count {
                let key = keys[i]
                let value = members[key] ?? .null
                switch random.below(4) {
                case 0: object.member(key, value, into: &out)
                case 1: object.member(key, encoded: EncodedJSON(value), into: &out)
                case 2: object.member(key, sharing: EncodedJSON(value), into: &out, pieces: &pieces)
                default:
                    // A run of up to three members, encoded as another object's members.
                    let run = Array(keys[i..<min(keys.count, i + 1 + random.below(3))])
                    var other: [String: JSONValue] = [:]
                    for k in run { other[k] = members[k] }
                    let text = JSONWriter.bytes(.object(other))
                    object.members(encoded: text[1..<(text.count - 1)], count: run.count, into: &out)
                    i += run.count
                    continue
                }
                i += 1
            }
            object.finish(into: &out)
            pieces.append(out)
            #expect(Array(pieces.joined()) == JSONWriter.bytes(.object(members)))
        }
    }

    /// Indented, the object writer is the pretty writer (empty objects stay `{}`).
    @Test func indented_isThePrettyWriter() {
        var random = SplitMix(seed: 29)
        for _ in 0..<200 {
            guard case .object(let members) = randomObject(&random, depth: 0) else { continue }
            var out: [UInt8] = []
            var object = JSONObjectWriter(into: &out, writer: JSONWriter(indent: "  "))
            for key in members.keys.sorted(by: JSONWriter.utf8Precedes) {
                object.member(key, members[key] ?? .null, into: &out)
            }
            object.finish(into: &out)
            #expect(String(decoding: out, as: UTF8.self) == JSONWriter.prettyString(.object(members)))
        }
    }

    /// The member ranges the writer returns are each member's `"key":value`,
    /// and `EncodedJSON.compactIndexing` finds the same ranges while copying.
    @Test func memberRanges_whileWriting_andWhileCopying() throws {
        var random = SplitMix(seed: 31)
        for _ in 0..<200 {
            guard case .object(let members) = randomObject(&random, depth: 0) else { continue }
            let indexed = IndexedJSON.object { object, out in
                object.key("w", into: &out)
                var inner = JSONObjectWriter(into: &out, level: 1)
                var ranges: [Range<Int>] = []
                for key in members.keys.sorted(by: JSONWriter.utf8Precedes) {
                    ranges.append(inner.member(key, members[key] ?? .null, into: &out))
                }
                inner.finish(into: &out)
                return ranges
            }
            let written = indexed.json
            #expect(written.bytes == JSONWriter.bytes(.object(["w": .object(members)])))
            let ranges = indexed.members
            #expect(ranges.count == members.count)
            for range in ranges {
                let member = try JSONParser.parse(Array("{".utf8) + written.bytes[range] + Array("}".utf8))
                let (key, value) = try #require(member.objectValue?.first)
                #expect(members[key] == value)
            }
            let pretty = JSONWriter.prettyBytes(.object(members))
            var storage: [UInt8] = []
            let copied = EncodedJSON.compactIndexing(checked: pretty[...], wrappedAs: "w", storage: &storage)
            #expect(copied == indexed)
            storage = []
            let plain = EncodedJSON.compact(checked: pretty[...], wrappedAs: "w", storage: &storage)
            #expect(plain == written)
        }
    }

    @Test func settingsShape_isTheWritersBytes() {
        for theme in ["auto", "", "quote \" \\ back", "line\nbreak \u{1}", "blå 🌙", "\u{2028}"] {
            let encoded = EncodedJSON.object { object, out in
                object.member("enabled", .bool(true), into: &out)
                object.member("theme", .string(theme), into: &out)
            }
            #expect(encoded == EncodedJSON(["enabled": true, "theme": .string(theme)]))
        }
    }
}

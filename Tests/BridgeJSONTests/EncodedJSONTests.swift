import Testing

@testable import BridgeJSON

/// What `compactStringObject` must give for `text`: the writer's compact bytes
/// of the parsed value (nil when it is not JSON).
private func writerBytes(_ text: [UInt8]) -> [UInt8]? {
    (try? JSONParser.parse(text)).map(JSONWriter.bytes)
}

private func compact(_ text: [UInt8]) -> [UInt8]? {
    EncodedJSON.compactStringObject(text[...])?.bytes
}

private func compact(_ text: String) -> [UInt8]? { compact(Array(text.utf8)) }

/// Pieces of strings: plain, non-ASCII, what the writer escapes, and what it
/// writes as `\u00XX` (which `compactStringObject` must refuse).
private let pieces: [String] = [
    "a", "b", "z", "A", "0", "_", "$", " ", "/", "~", "\u{7f}", "é", "e\u{301}", "ß", "中", "😀", "\u{2028}", "\u{FFFD}",
    "\"", "\\", "\n", "\r", "\t", "\u{8}", "\u{c}", "\u{1}", "\u{0}", "\u{1f}", "\u{1b}",
]

/// A string of up to `maxPieces` pieces; without the last four (written as
/// `\u00XX`) unless `controls`.
private func randomString(_ random: inout SplitMix, maxPieces: Int, controls: Bool = true) -> String {
    var s = ""
    let count = controls ? pieces.count : pieces.count - 4
    for _ in 0..<random.below(maxPieces + 1) {
        // Mostly plain letters, so that many maps are copyable.
        s += random.below(3) == 0 ? pieces[random.below(count)] : pieces[random.below(3)]
    }
    return s
}

/// A key: printable ASCII (which can be copied), or when `any`, sometimes any string.
private func randomKey(_ random: inout SplitMix, any: Bool) -> String {
    if any && random.below(8) == 0 { return randomString(&random, maxPieces: 4) }
    var s = ""
    for _ in 0..<(1 + random.below(4)) { s += pieces[random.below(random.below(2) == 0 ? 3 : 11)] }
    return s
}

/// True when the writer's text of `map` is one that `compactStringObject`
/// copies: keys non-empty ASCII written without escapes, values with only
/// the escapes `\" \\ \n \r \t \b \f`.
private func isCopyable(_ map: [String: String]) -> Bool {
    for (key, value) in map {
        if key.isEmpty || key.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 >= 0x80 }) {
            return false
        }
        if value.utf8.contains(where: { $0 < 0x20 && ![0x0A, 0x0D, 0x09, 0x08, 0x0C].contains($0) }) { return false }
    }
    return true
}

@Suite struct EncodedJSONTests {
    @Test func init_isTheWritersCompactBytes() {
        let values: [JSONValue] = [
            nil, true, 0, -5, 2.5, "a\"b\n\u{1}é", [], [:], [1, "x", [nil]],
            ["b": 1, "a": ["c": [true]], "é": "e\u{301}"],
        ]
        for value in values {
            #expect(EncodedJSON(value).bytes == JSONWriter.bytes(value))
            #expect(EncodedJSON(value).value == value)
        }
    }

    @Test func compactStringObject_ofWriterOutput_isTheCompactBytesOrNil() {
        var random = SplitMix(seed: 7)
        var copied = 0
        for round in 0..<400 {
            var map: [String: String] = [:]
            for _ in 0..<random.below(round < 200 ? 6 : 40) {
                let any = round % 2 == 0
                map[randomKey(&random, any: any)] = randomString(&random, maxPieces: 12, controls: any)
            }
            let value = JSONValue.object(map.mapValues { .string($0) })
            let expected = JSONWriter.bytes(value)
            let texts = [
                expected, JSONWriter.prettyBytes(value), Array(JSONWriter.prettyString(value).utf8),
                Array((" \n" + JSONWriter.prettyString(value) + "\r\n\t ").utf8),
            ]
            for text in texts {
                let result = compact(text)
                #expect(
                    result == nil || result == expected, "\(String(decoding: text, as: UTF8.self).debugDescription)")
                #expect((result != nil) == isCopyable(map), "\(String(decoding: text, as: UTF8.self).debugDescription)")
            }
            if isCopyable(map) { copied += 1 }
        }
        #expect(copied > 200)  // the test exercises the copying path, not only refusals
    }

    @Test func compactStringObject_dropsWhiteSpace_andKeepsEscapesAsWritten() {
        #expect(compact("{}") == Array("{}".utf8))
        #expect(compact(" \n{ \t}\r\n") == Array("{}".utf8))
        #expect(compact(#" { "a" : "b" , "c":"d\"\\\n\r\t\b\f" } "#) == Array(#"{"a":"b","c":"d\"\\\n\r\t\b\f"}"#.utf8))
        #expect(compact(#"{"a":"é中😀 /\#u{7f}\#u{2028}"}"#) == Array(#"{"a":"é中😀 /\#u{7f}\#u{2028}"}"#.utf8))
        // Keys in byte order: "Z" < "a" < "ab" < "b".
        let ordered = #"{" ":"0","Z":"1","a":"2","ab":"3","b":"4","~\#u{7f}":"5"}"#
        #expect(compact(ordered) == Array(ordered.utf8))
        #expect(compact(ordered) == writerBytes(Array(ordered.utf8)))
    }

    @Test(arguments: [
        #"{"b":"1","a":"2"}"#,  // unsorted keys
        #"{"a":"1","a":"2"}"#,  // duplicate keys
        #"{"a":"1","b":"2","b":"3"}"#,
        #"{"ab":"1","a":"2"}"#,
        #"{"":"1"}"#,  // empty key
        #"{"\u0061":"1"}"#,  // keys with escapes
        #"{"a\"b":"1"}"#, #"{"a\\b":"1"}"#, #"{"a\nb":"1"}"#,
        #"{"é":"1"}"#, #"{"a":"1","é":"2"}"#,  // keys outside ASCII (see the test below)
        #"{"a":1}"#,  // values that are not strings
        #"{"a":"x","b":null}"#, #"{"a":true}"#, #"{"a":[]}"#, #"{"a":{}}"#, #"{"a":{"b":"c"}}"#, #"{"a":1.5}"#,
        #"{"a":"\/"}"#,  // escapes the writer does not write
        #"{"a":"\u0041"}"#, #"{"a":"\u0001"}"#, #"{"a":"\u00e9"}"#, #"{"a":"\ud83d\ude00"}"#,
        #"{"a":"1"} x"#,  // trailing garbage
        #"{"a":"1"}{}"#, #"{"a":"1"},"#, #"{"a":"1"}]"#,
        #"["a"]"#, #""a""#, "null", "", " ", "{", #"{"a":"1""#, #"{"a":"1",}"#, #"{"a"}"#,  // not an object of strings
        "{\"a\":\"\u{1}\"}", "{\"a\u{1}\":\"1\"}",  // raw control characters: not JSON
    ])
    func compactStringObject_refuses(text: String) {
        #expect(compact(text) == nil)
    }

    @Test func compactStringObject_refusesInvalidUTF8() {
        #expect(compact(Array(#"{"a":""#.utf8) + [0xFF] + Array(#""}"#.utf8)) == nil)
        #expect(compact(Array(#"{""#.utf8) + [0xC3] + Array(#"":"1"}"#.utf8)) == nil)
    }

    @Test func compactStringObject_ofASlice_readsOnlyTheSlice() {
        let file = Array(#"xx{"a":"1"}yy"#.utf8)
        #expect(EncodedJSON.compactStringObject(file[2..<11])?.bytes == Array(#"{"a":"1"}"#.utf8))
        #expect(EncodedJSON.compactStringObject(file[2..<12]) == nil)
    }

    /// Keys that differ in bytes but are equal Strings (NFC "é" and NFD
    /// "e\u{301}") are one key once parsed, so the writer writes one member:
    /// a copy must not keep both.
    @Test func compactStringObject_canonicallyEquivalentKeys_areNotCopiedAsTwo() {
        for text in [
            "{\"e\u{301}\":\"a\",\"\u{e9}\":\"b\"}", "{\"A\u{30a}\":\"a\",\"\u{c5}\":\"b\",\"\u{212b}\":\"c\"}",
            "{\"a\":\"x\",\"e\u{301}\":\"a\",\"f\":\"y\",\"\u{e9}\":\"b\"}",
        ] {
            let expected = writerBytes(Array(text.utf8))
            #expect(expected != nil)
            let result = compact(text)
            #expect(result == nil || result == expected, "\(text.debugDescription)")
        }
    }
}

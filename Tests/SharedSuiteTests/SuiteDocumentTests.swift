import BridgeJSON
import BridgeSystem
import Testing

@testable import SharedSuite

/// The path suite files of these tests are read as (nothing is read from it).
let suiteFilePath = "/t/suite.json"

/// How one way of reading a suite file ended.
enum SuiteReadOutcome: Equatable, CustomStringConvertible {
    case values([String: SuiteValue])
    case corrupt(String)
    case newer(Int)
    case other(SuiteError)

    init(_ body: () throws(SuiteError) -> [String: SuiteValue]) {
        do throws(SuiteError) {
            self = .values(try body())
        } catch {
            switch error {
            case .corrupt(let p, let reason) where p == suiteFilePath: self = .corrupt(reason)
            case .newerFormat(let p, let version, let supported)
            where p == suiteFilePath && supported == Suite.formatVersion:
                self = .newer(version)
            default: self = .other(error)
            }
        }
    }

    /// Same result, or the same kind of error (the reasons may name another key).
    func sameKind(as other: SuiteReadOutcome) -> Bool {
        switch (self, other) {
        case (.corrupt, .corrupt): return true
        default: return self == other
        }
    }

    var description: String {
        switch self {
        case .values(let v): return "values \(v)"
        case .corrupt(let r): return "corrupt: \(r)"
        case .newer(let v): return "newer format \(v)"
        case .other(let e): return "other error: \(e)"
        }
    }
}

/// The one-pass reader, `Suite.decode(bytes, path:)`.
func onePass(_ bytes: [UInt8]) -> SuiteReadOutcome {
    SuiteReadOutcome { () throws(SuiteError) in try Suite.decode(bytes, path: suiteFilePath) }
}

/// The tree reader (the CLI's `import`): `JSONParser` then `Suite.decode(document:path:)`.
func tree(_ bytes: [UInt8]) -> SuiteReadOutcome {
    SuiteReadOutcome { () throws(SuiteError) in
        let document: JSONValue
        do throws(JSONError) {
            document = try JSONParser.parse(bytes, maximumDepth: SuiteDocument.maximumDepth)
        } catch {
            throw .corrupt(path: suiteFilePath, reason: "not JSON (\(error))")
        }
        return try Suite.decode(document: document, path: suiteFilePath)
    }
}

/// A snapshot of the file, every value read through it.
func snapshotOutcome(_ bytes: [UInt8]) -> SuiteReadOutcome {
    SuiteReadOutcome { () throws(SuiteError) in try Suite.snapshot(ofFile: bytes, path: suiteFilePath).values }
}

/// Checks every reader against the others on `text` and returns the one-pass outcome:
/// the snapshot succeeds and fails exactly as `decode` does, and every way of
/// reading a snapshot value gives the decoded value; the tree reader agrees
/// (same values, or the same kind of error) unless `duplicateKeys`, when the
/// one pass may refuse more.
@discardableResult
func expectAgreement(
    _ text: [UInt8], duplicateKeys: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
) -> SuiteReadOutcome {
    let shown = String(decoding: text, as: UTF8.self).debugDescription
    let decoded = onePass(text)
    #expect(snapshotOutcome(text) == decoded, "snapshot of \(shown)", sourceLocation: sourceLocation)
    let treeOutcome = tree(text)
    if duplicateKeys, case .values = treeOutcome, case .corrupt = decoded {
        // The one pass checks values that a later duplicate replaces.
    } else {
        #expect(
            treeOutcome.sameKind(as: decoded), "tree \(treeOutcome), one pass \(decoded) for \(shown)",
            sourceLocation: sourceLocation)
    }
    if case .values(let values) = decoded, let snapshot = try? Suite.snapshot(ofFile: text, path: suiteFilePath) {
        #expect(Set(snapshot.keys) == Set(values.keys), "keys of \(shown)", sourceLocation: sourceLocation)
        for (key, value) in values {
            #expect(snapshot[key] == value, "snapshot[\(key)] of \(shown)", sourceLocation: sourceLocation)
            // The stored text is the value's own text.
            let stored = snapshot.storedJSON(key).map { Array($0) } ?? []
            let reread = try? SuiteValue(json: JSONParser.parse(stored, maximumDepth: SuiteDocument.maximumDepth))
            #expect(reread == value, "storedJSON(\(key)) of \(shown)", sourceLocation: sourceLocation)
            if let encoded = snapshot.encodedStringDictionary(key) {
                #expect(
                    encoded == EncodedJSON(value.json), "encodedStringDictionary(\(key)) of \(shown)",
                    sourceLocation: sourceLocation)
                guard case .dictionary(let members) = value else {
                    Issue.record(
                        "encodedStringDictionary(\(key)) of a \(value.typeName)", sourceLocation: sourceLocation)
                    continue
                }
                #expect(
                    members.values.allSatisfy { if case .string = $0 { true } else { false } },
                    sourceLocation: sourceLocation)
            }
        }
    }
    return decoded
}

@discardableResult
func expectAgreement(
    _ text: String, duplicateKeys: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
) -> SuiteReadOutcome {
    expectAgreement(Array(text.utf8), duplicateKeys: duplicateKeys, sourceLocation: sourceLocation)
}

func suiteDocument(_ values: String) -> String { #"{"formatVersion":1,"values":{"# + values + "}}" }

private let date = WallTime(seconds: 1_795_978_622, nanoseconds: 123_000_000)

@Suite struct SuiteDocumentTests {
    @Test func tags_readAsDataDateAndDictionary() {
        let text = suiteDocument(
            #""d":{"$data":"AAEC"},"t":{"$date":"2026-11-29T18:57:02.123Z"},"x":{"$dict":{"$data":"not base64"}},"#
                + #""e":{"$data":""},"n":{"$dict":{}},"a":[{"$date":"2026-11-29T18:57:02.123Z"},{"$data":"AA=="}]"#)
        #expect(
            expectAgreement(text)
                == .values([
                    "d": .data([0, 1, 2]), "t": .date(date), "x": .dictionary(["$data": .string("not base64")]),
                    "e": .data([]), "n": .dictionary([:]), "a": .array([.date(date), .data([0])]),
                ]))
    }

    @Test func dollarDictionaries_roundTripThroughTheDictTag() {
        let values: [String: SuiteValue] = [
            "one": .dictionary(["$data": .string("AA==")]), "date": .dictionary(["$date": .int(1)]),
            "dict": .dictionary(["$dict": .dictionary(["$x": .bool(true)])]), "unknown": .dictionary(["$x": .int(1)]),
            "two": .dictionary(["$a": .int(1), "$b": .int(2)]), "mixed": .dictionary(["$a": .int(1), "b": .int(2)]),
            "dollar": .dictionary(["$": .string("")]), "nested": .array([.dictionary(["$data": .data([1])])]),
        ]
        let encoded = Suite.encode(values)
        #expect(expectAgreement(encoded) == .values(values))
        #expect(expectAgreement(JSONWriter.bytes(Suite.document(values))) == .values(values))
        #expect(
            String(decoding: JSONWriter.bytes(values["one"]?.json ?? .null), as: UTF8.self)
                == #"{"$dict":{"$data":"AA=="}}"#)
    }

    @Test(arguments: [
        (#"{"$data":"AA==","b":1}"#, SuiteValue.dictionary(["$data": .string("AA=="), "b": .int(1)])),
        (#"{"$date":"x","$data":"y"}"#, .dictionary(["$date": .string("x"), "$data": .string("y")])),
        (#"{"$unknown":[null],"b":1}"#, nil),
        (#"{"$dict":5,"b":{"$data":"AQ=="}}"#, .dictionary(["$dict": .int(5), "b": .data([1])])),
        (
            #"{"$x":{"$data":"AQ=="},"y":[{"$date":"2026-11-29T18:57:02.123Z"}]}"#,
            .dictionary(["$x": .data([1]), "y": .array([.date(date)])])
        ),
        (#"{"b":1,"$data":"AA=="}"#, .dictionary(["b": .int(1), "$data": .string("AA==")])),
    ])
    func firstKeyWithDollar_followedByOthers_isADictionary(object: String, expected: SuiteValue?) {
        let outcome = expectAgreement(suiteDocument(#""k":"# + object))
        if let expected {
            #expect(outcome == .values(["k": expected]))
        } else {
            #expect(
                outcome == .corrupt("wrong type at k: $unknown: null is not a suite value (delete the key instead)"))
        }
    }

    @Test func escapedDollarKeys_areTags() {
        let text = suiteDocument(
            #""t":{"\u0024date":"2026-11-29T18:57:02.123Z"},"d":{"\u0024data":"AAE="},"#
                + #""x":{"\u0024dict":{"\u0024y":1}},"p":{"$d\u0061ta":"AA=="},"q":{"\u0041":{"\u0024data":"AQ=="}}"#)
        #expect(
            expectAgreement(text)
                == .values([
                    "t": .date(date), "d": .data([0, 1]), "x": .dictionary(["$y": .int(1)]), "p": .data([0]),
                    "q": .dictionary(["A": .data([1])]),
                ]))
        #expect(
            expectAgreement(suiteDocument(#""k":{"\u0024nope":1}"#))
                == .corrupt("wrong type at k: unknown tag $nope (known: $data, $date, $dict)"))
    }

    @Test func valuesBeforeFormatVersion_areReadOnceTheVersionIsKnown() {
        let values = #""a":1,"b":{"$data":"AAEC"},"c":[true,"x"],"d":{"k":{"$date":"2026-11-29T18:57:02.123Z"}}"#
        let expected: [String: SuiteValue] = [
            "a": .int(1), "b": .data([0, 1, 2]), "c": .array([.bool(true), .string("x")]),
            "d": .dictionary(["k": .date(date)]),
        ]
        for text in [
            #"{"values":{"# + values + #"},"formatVersion":1}"#,
            #"{"other":[1,{}],"values":{"# + values + #"},"more":"x","formatVersion":1.0}"#,
            "\n { \"values\" : {" + values + "} ,\n \"formatVersion\" : 1 }\n",
        ] {
            #expect(expectAgreement(text) == .values(expected))
        }
        #expect(
            expectAgreement(#"{"values":{"a":null},"formatVersion":1}"#)
                == .corrupt("wrong type at a: null is not a suite value (delete the key instead)"))
        #expect(expectAgreement(#"{"values":{"a":null},"formatVersion":2}"#) == .newer(2))
        #expect(
            expectAgreement(#"{"values":[],"formatVersion":1}"#) == .corrupt("values is a array, expected an object"))
        #expect(
            expectAgreement(#"{"values":{},"formatVersion":0}"#) == .corrupt("formatVersion is not a positive integer"))
        #expect(expectAgreement(#"{"values":{"a":1}}"#) == .corrupt("formatVersion is missing"))
        #expect(expectAgreement(#"{"values":{"a":1},"formatVersion":1"#).sameKind(as: .corrupt("")))
    }

    @Test func repeatedValues_lastOneWins() {
        let cases: [(String, [String: SuiteValue])] = [
            (#"{"formatVersion":1,"values":{"a":1},"values":{"b":2}}"#, ["b": .int(2)]),
            (#"{"values":{"a":1},"formatVersion":1,"values":{"b":2}}"#, ["b": .int(2)]),
            (#"{"formatVersion":1,"values":{"a":1},"x":0,"values":{"b":2},"formatVersion":1}"#, ["b": .int(2)]),
            (#"{"values":{"a":1},"values":{"b":{"$data":"AA=="}},"formatVersion":1}"#, ["b": .data([0])]),
            (#"{"formatVersion":1,"values":{"a":1},"values":{}}"#, [:]),
            (#"{"formatVersion":2,"values":{"a":1},"formatVersion":1}"#, ["a": .int(1)]),
            (#"{"formatVersion":1,"values":{"k":1,"k":{"$data":"AQ=="}}}"#, ["k": .data([1])]),
            // A repeated tag key is one key: still a tag, with the last value.
            (#"{"formatVersion":1,"values":{"k":{"$data":"!!","$data":"AQ=="}}}"#, ["k": .data([1])]),
            (#"{"formatVersion":1,"values":{"k":{"$data":[1,{}],"\u0024data":"AQ=="}}}"#, ["k": .data([1])]),
            (
                #"{"formatVersion":1,"values":{"k":{"$data":"AA==","$data":"AQ==","b":1}}}"#,
                ["k": .dictionary(["$data": .string("AQ=="), "b": .int(1)])]
            ),
            (
                #"{"formatVersion":1,"values":{"k":{"$a":1,"b":2,"$a":3}}}"#,
                ["k": .dictionary(["$a": .int(3), "b": .int(2)])]
            ),
        ]
        for (text, expected) in cases {
            #expect(expectAgreement(text, duplicateKeys: true) == .values(expected), "\(text)")
        }
        // A replaced value is still checked by the one pass (the tree never sees it).
        for text in [
            #"{"formatVersion":1,"values":{"a":null},"values":{"b":2}}"#,
            #"{"formatVersion":1,"values":{"k":null,"k":1}}"#,
        ] {
            expectAgreement(text, duplicateKeys: true)
        }
        // Repeated versions: the last one counts.
        #expect(
            expectAgreement(#"{"formatVersion":1,"values":{"a":1},"formatVersion":2}"#, duplicateKeys: true)
                == .newer(2))
        #expect(
            expectAgreement(#"{"formatVersion":2,"formatVersion":"1","values":{}}"#, duplicateKeys: true)
                == .corrupt("formatVersion is not a positive integer"))
    }

    /// When a valid version is followed by a newer one, values read in between
    /// must not turn a newer-format file into a corrupt one: `repair` moves a
    /// corrupt file aside but leaves a newer one alone.
    @Test func repeatedVersion_newerLast_refusesAsTheTreeDoes() {
        let text = #"{"formatVersion":1,"values":{"a":null},"formatVersion":2}"#
        #expect(tree(Array(text.utf8)) == .newer(2))
        #expect(snapshotOutcome(Array(text.utf8)) == onePass(Array(text.utf8)))
        #expect(onePass(Array(text.utf8)) == .newer(2))
    }

    @Test func newerFormat_isRefusedWithoutReadingValues() {
        #expect(expectAgreement(#"{"formatVersion":2,"values":{"a":null,"b":{"$x":1}}}"#) == .newer(2))
        #expect(expectAgreement(#"{"formatVersion":2.0,"values":[]}"#) == .newer(2))
        #expect(expectAgreement(#"{"formatVersion":1e3}"#) == .newer(1000))
        #expect(expectAgreement(#"{"formatVersion":2,"values":{"a":1}"#).sameKind(as: .corrupt("")))  // not JSON
        #expect(expectAgreement(#"{"formatVersion":1,"values":{}}"#) == .values([:]))
        #expect(expectAgreement(#"{"formatVersion":1}"#) == .values([:]))
        #expect(expectAgreement(#"{"formatVersion":1.0,"values":{"a":1.0}}"#) == .values(["a": .double(1)]))
        for version in ["0", "-1", "1.5", "\"1\"", "null", "true", "[1]", "{}", "1e300"] {
            #expect(
                expectAgreement(#"{"formatVersion":"# + version + "}")
                    == .corrupt("formatVersion is not a positive integer"))
        }
    }

    @Test(arguments: [
        (#""k":null"#, "wrong type at k: null is not a suite value (delete the key instead)"),
        (#""k":[1,null]"#, "wrong type at k: null is not a suite value (delete the key instead)"),
        (#""k":{"a":{"b":null}}"#, "wrong type at k: a: b: null is not a suite value (delete the key instead)"),
        (#""k":{"x\u0041":null}"#, "wrong type at k: xA: null is not a suite value (delete the key instead)"),
        (#""k":{"$data":"AA==","b":null}"#, "wrong type at k: b: null is not a suite value (delete the key instead)"),
        (#""k":{"$x":null,"b":1}"#, "wrong type at k: $x: null is not a suite value (delete the key instead)"),
        (#""k":{"$data":"!"}"#, "wrong type at k: $data must hold a base64 string"),
        (#""k":{"$data":1}"#, "wrong type at k: $data must hold a base64 string"),
        (
            #""k":[{"$date":"yesterday"}]"#,
            "wrong type at k: $date must hold an ISO 8601 date such as 2026-11-29T18:57:02Z"
        ),
        (#""k":{"$dict":[]}"#, "wrong type at k: $dict must hold an object"),
        (#""k":{"$dict":{"a":null}}"#, "wrong type at k: a: null is not a suite value (delete the key instead)"),
        (#""k":{"$dict":{"a":{"$nope":1}}}"#, "wrong type at k: a: unknown tag $nope (known: $data, $date, $dict)"),
        (#""k":{"$":1}"#, "wrong type at k: unknown tag $ (known: $data, $date, $dict)"),
        (#""k\"q":null"#, "wrong type at k\"q: null is not a suite value (delete the key instead)"),
    ])
    func wrongTypes_nameTheKeyAndTheReason(values: String, reason: String) {
        let text = suiteDocument(values)
        #expect(expectAgreement(text) == .corrupt(reason))
        #expect(tree(Array(text.utf8)) == .corrupt(reason))
    }

    @Test(arguments: [
        ("", "the file is empty (truncated?)"), ("[]", "the top level is a array, expected an object"),
        ("\"x\"", "the top level is a string, expected an object"),
        ("null", "the top level is a null, expected an object"),
        (#"{"formatVersion":1,"values":5}"#, "values is a number, expected an object"),
        (#"{"formatVersion":1,"values":null}"#, "values is a null, expected an object"),
        (#"{"formatVersion":1,"values":"x"}"#, "values is a string, expected an object"),
        (#"{"formatVersion":1,"values":true}"#, "values is a boolean, expected an object"),
    ])
    func documentShape_isChecked(text: String, reason: String) {
        #expect(expectAgreement(text) == .corrupt(reason))
    }

    @Test(arguments: [
        "{", "[", "nul", "{}x", #"{"formatVersion":1,"values":{"a":1e999}}"#,
        #"{"formatVersion":1,"values":{"a":"\x"}}"#,
    ])
    func notJSON_isCorrupt(text: String) {
        guard case .corrupt(let reason) = expectAgreement(text) else {
            Issue.record("\(text) was not refused as corrupt")
            return
        }
        #expect(reason.hasPrefix("not JSON ("))
    }

    @Test func nulls_anywhere_areRefusedByEveryReader() {
        for values in [
            #""a":null"#, #""a":[null]"#, #""a":{"b":null}"#, #""a":{"$dict":{"b":null}}"#, #""a":{"$data":null}"#,
            #""a":{"$date":null}"#, #""a":{"$dict":null}"#, #""a":1,"b":[[[{"c":null}]]]"#,
        ] {
            guard case .corrupt(let reason) = expectAgreement(suiteDocument(values)) else {
                Issue.record("\(values) was not refused")
                continue
            }
            #expect(reason.hasPrefix("wrong type at "))
        }
    }

    @Test func nesting_limitIsTheSameForEveryReader() {
        // The document and `values` take two of the 512 levels.
        for depth in [509, 510, 511] {
            let array = String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
            let object =
                String(repeating: #"{"a":"#, count: depth - 1) + #"{"$data":"AA=="}"#
                + String(repeating: "}", count: depth - 1)
            let tagged = #"{"$x":"# + array + #","y":1}"#
            for value in [array, object] {
                let outcome = expectAgreement(suiteDocument(#""k":"# + value))
                let tooDeep = SuiteReadOutcome.corrupt("not JSON (\(JSONError.tooDeep(limit: 512)))")
                #expect((depth <= 510) == (outcome != tooDeep))
                expectAgreement(#"{"values":{"k":"# + value + #"},"formatVersion":1}"#)
            }
            expectAgreement(suiteDocument(#""k":"# + tagged))
        }
    }

    @Test func randomValues_encodeAndReadBackEqually() {
        var random = SplitMix(seed: 2026)
        for _ in 0..<150 {
            var values: [String: SuiteValue] = [:]
            for _ in 0..<random.below(8) { values[randomKey(&random)] = randomValue(&random, depth: 3) }
            let pretty = Suite.encode(values)
            let compact = JSONWriter.bytes(Suite.document(values))
            #expect(expectAgreement(pretty) == .values(values))
            #expect(expectAgreement(compact) == .values(values))
            // The same values before the version.
            let valuesText = JSONWriter.bytes(.object(values.mapValues(\.json)))
            let reordered = Array(#"{"values":"#.utf8) + valuesText + Array(#","formatVersion":1}"#.utf8)
            #expect(expectAgreement(reordered) == .values(values))
        }
    }
}

private let keyPieces = ["a", "b", "$", "$data", "$date", "$dict", "é", "e\u{301}", "\"", "\\", "\n", "\u{1}", "😀", ""]

private func randomKey(_ random: inout SplitMix) -> String {
    (0..<random.below(3)).map { _ in keyPieces[random.below(keyPieces.count)] }.joined()
}

private func randomValue(_ random: inout SplitMix, depth: Int) -> SuiteValue {
    switch random.below(depth > 0 ? 9 : 6) {
    case 0: return .bool(random.below(2) == 0)
    case 1: return .int(Int(bitPattern: UInt(random.next())) >> random.below(64))
    case 2:
        return .double(Double(Int(bitPattern: UInt(random.next()) >> 11)) / 1024 * (random.below(2) == 0 ? 1 : -1e-9))
    case 3: return .string(randomKey(&random) + randomKey(&random))
    case 4: return .data((0..<random.below(6)).map { _ in UInt8(random.below(256)) })
    case 5:
        return .date(
            WallTime(
                seconds: Int64(random.below(4_000_000_000)) - 2_000_000_000,
                nanoseconds: Int32(random.below(1000)) * 1_000_000))
    case 6: return .array((0..<random.below(4)).map { _ in randomValue(&random, depth: depth - 1) })
    default:
        var members: [String: SuiteValue] = [:]
        for _ in 0..<random.below(4) { members[randomKey(&random)] = randomValue(&random, depth: depth - 1) }
        return .dictionary(members)
    }
}

/// A small deterministic generator (SplitMix64), so failures reproduce.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}

// Fuzz target: the suite file readers on arbitrary bytes, as the contents of
// `suite.json`: the one-pass `Suite.decode(bytes, path:)`, the lazy
// `Suite.snapshot(ofFile:path:)`, and the tree reader of the CLI's `import`
// (`JSONParser.parse(bytes, maximumDepth: 512)` + `Suite.decode(document:path:)`).
//
// Checks: a refusal is `.corrupt` or `.newerFormat` naming the path (never an
// I/O error); the snapshot succeeds and fails exactly as `decode` does (same
// error), its `values`, `snapshot[key]` and `storedJSON(key)` give the decoded
// values, and `encodedStringDictionary(key)`, when not nil, is the compact
// JSON of a dictionary of strings; the tree reader agrees with `decode` —
// equal values, or the same kind of refusal (both `.corrupt`, or both
// `.newerFormat` with the same version) — except that on inputs with a
// repeated object key `decode` may refuse where the tree reader accepts (it
// checks values that a later duplicate replaces);
// accepted values encode to a document that decodes to equal values, and
// encoding is then a fixed point.
import BridgeJSON
import BridgeSystem
import FuzzSupport
import SharedSuite

private let path = "/fuzz/suite.json"
/// The nesting the suite readers allow (the document and `values` are two levels).
private let maximumDepth = 512

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let decoded = outcome { () throws(SuiteError) in try Suite.decode(input, path: path) }
    let snapshot = Result { () throws(SuiteError) in try Suite.snapshot(ofFile: input, path: path) }
    checkSnapshot(snapshot, decoded)
    checkTree(input, decoded)

    guard case .success(let values) = decoded else {
        if case .failure(let error) = decoded {
            switch error {
            case .corrupt(let p, _), .newerFormat(let p, _, _): check(p == path, "error names \(p), not \(path)")
            default: check(false, "decode failed with an unexpected error: \(error)")
            }
        }
        return 0
    }
    let encoded = Suite.encode(values)
    let again: [String: SuiteValue]
    do throws(SuiteError) {
        again = try Suite.decode(encoded, path: path)
    } catch {
        fatalError("FuzzSuiteFile: Suite.encode output does not decode (\(error)):\n\(text(encoded))")
    }
    check(again == values, "decode(encode(values)) != values:\n\(values)\n\(again)")
    check(Suite.encode(again) == encoded, "encoding is not a fixed point")
    return 0
}

private func outcome(_ body: () throws(SuiteError) -> [String: SuiteValue]) -> Result<[String: SuiteValue], SuiteError>
{
    do throws(SuiteError) {
        return .success(try body())
    } catch {
        return .failure(error)
    }
}

/// The snapshot fails as `decode` does, or holds the same values however they are read.
private func checkSnapshot(
    _ snapshot: Result<SuiteSnapshot, SuiteError>, _ decoded: Result<[String: SuiteValue], SuiteError>
) {
    switch (snapshot, decoded) {
    case (.failure(let a), .failure(let b)):
        check(a == b, "snapshot refused with \(a), decode with \(b)")
    case (.success(let snapshot), .success(let values)):
        check(snapshot.values == values, "snapshot.values != decode:\n\(snapshot.values)\n\(values)")
        check(Set(snapshot.keys) == Set(values.keys), "snapshot.keys \(snapshot.keys) != \(Array(values.keys))")
        for (key, value) in values {
            check(snapshot[key] == value, "snapshot[\(key)] is \(String(describing: snapshot[key])), decode \(value)")
            guard let stored = snapshot.storedJSON(key) else {
                check(false, "no storedJSON(\(key))")
                continue
            }
            let reread = outcome { () throws(SuiteError) in
                var document = Array(#"{"formatVersion":1,"values":{"k":"#.utf8)
                document += stored
                document += Array("}}".utf8)
                return try Suite.decode(document, path: path)
            }
            check(
                (try? reread.get())?["k"] == value,
                "storedJSON(\(key)) = \(text(Array(stored))) does not decode to \(value): \(reread)")
            if let encoded = snapshot.encodedStringDictionary(key) {
                check(encoded == EncodedJSON(value.json), "encodedStringDictionary(\(key)) is not the compact JSON")
                var strings = false
                if case .dictionary(let members) = value {
                    strings = members.values.allSatisfy { if case .string = $0 { true } else { false } }
                }
                check(strings, "encodedStringDictionary(\(key)) of \(value)")
            }
        }
    case (let a, let b):
        check(false, "snapshot gave \(a), decode gave \(b)")
    }
}

/// The tree reader of the CLI's `import` agrees with the one pass (see the header).
private func checkTree(_ input: [UInt8], _ decoded: Result<[String: SuiteValue], SuiteError>) {
    let document: JSONValue
    do throws(JSONError) {
        document = try JSONParser.parse(input, maximumDepth: maximumDepth)
    } catch {
        check(isCorrupt(decoded), "not JSON to the tree (\(error)), but decode gave \(decoded)")
        return
    }
    let tree = outcome { () throws(SuiteError) in try Suite.decode(document: document, path: path) }
    let duplicates = hasDuplicateKeys(input)
    switch (tree, decoded) {
    case (.success(let a), .success(let b)):
        check(a == b, "tree and one pass decode differently:\n\(a)\n\(b)")
    case (.success(let a), .failure(let error)):
        check(duplicates, "the tree decodes \(a), the one pass refuses with \(error), without repeated keys")
    case (.failure(let error), .success(let b)):
        check(false, "the tree refuses with \(error), the one pass decodes \(b)")
    case (.failure(let a), .failure(let b)):
        // Both `.corrupt`, or both `.newerFormat` with the same version, repeated keys or not.
        check(sameKind(a, b), "the tree refuses with \(a), the one pass with \(b)")
    }
}

private func sameKind(_ a: SuiteError, _ b: SuiteError) -> Bool {
    switch (a, b) {
    case (.corrupt, .corrupt): return true
    case (.newerFormat, .newerFormat): return a == b
    default: return false
    }
}

private func isCorrupt(_ result: Result<[String: SuiteValue], SuiteError>) -> Bool {
    if case .failure(.corrupt) = result { return true }
    return false
}

/// True when some object in the JSON text `input` repeats a key (as `String`
/// compares keys: canonically equivalent keys are one key, as in a
/// dictionary). Only for texts that parse.
private func hasDuplicateKeys(_ input: [UInt8]) -> Bool {
    input.withUnsafeBufferPointer { buffer in
        var reader = JSONReader(buffer, maximumDepth: maximumDepth)
        return (try? repeatsKey(&reader)) ?? false
    }
}

private func repeatsKey(_ reader: inout JSONReader) throws(JSONError) -> Bool {
    var found = false
    switch try reader.peekKind() {
    case .object:
        var keys = Set<String>()
        if try reader.beginObject() {
            repeat {
                if !keys.insert(try reader.readKey()).inserted { found = true }
                if try repeatsKey(&reader) { found = true }
            } while try reader.nextMember()
        }
    case .array:
        if try reader.beginArray() {
            repeat {
                if try repeatsKey(&reader) { found = true }
            } while try reader.nextElement()
        }
    default:
        try reader.skipValue()
    }
    return found
}

private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    FuzzDriver.check("FuzzSuiteFile", condition, message())
}

@main enum FuzzMain {
    static func main() { FuzzDriver.run("FuzzSuiteFile", fuzzOneInput) }
}

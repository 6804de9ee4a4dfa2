// Fuzz target: JSONParser, JSONReader and EncodedJSON on arbitrary bytes.
//
// Checks: a refusal names an offset inside the input; an accepted value
// written by JSONWriter (compact and pretty) parses back to an equal value,
// and writing that value again gives the same bytes. `JSONReader.skipValue`
// + `finish` accepts exactly what `JSONParser.parse` accepts, refuses the
// rest with the same error, and returns the value's range (the input without
// surrounding white space); so does it at a small depth limit (0–7, from the
// input's length) against `readValue`. `EncodedJSON.compactStringObject` of
// the input, and of the writer's compact and pretty output, is nil or exactly
// `JSONWriter.bytes` of the parsed value, and is not nil for the writer's
// output of an object of strings it documents as copyable.
import BridgeJSON
import BridgeSystem
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let parsed: Result<JSONValue, JSONError>
    do throws(JSONError) {
        parsed = .success(try JSONParser.parse(input))
    } catch {
        parsed = .failure(error)
    }
    checkSkipAgrees(input, maximumDepth: JSONParser.defaultMaximumDepth, with: parsed)
    checkSkipAgrees(input, maximumDepth: input.count % 8, with: read(input, maximumDepth: input.count % 8))
    let copied = EncodedJSON.compactStringObject(input[...])
    let value: JSONValue
    switch parsed {
    case .success(let v): value = v
    case .failure(let error):
        check(copied == nil, "compactStringObject copied a text that does not parse (\(error))")
        switch error {
        case .invalidUTF8(let offset), .syntax(let offset, _):
            check(offset >= 0 && offset <= input.count, "error offset \(offset) outside 0...\(input.count)")
        case .tooDeep(let limit): check(limit == JSONParser.defaultMaximumDepth, "tooDeep limit \(limit)")
        case .notAsWritten: check(false, "a value was refused without asWritten")
        }
        return 0
    }
    // Reading as written changes no value: it only refuses a text it would keep otherwise.
    do throws(JSONError) {
        let exact = try JSONParser.parse(input, asWritten: true)
        check(exact == value, "asWritten read another value")
    } catch {
        if case .notAsWritten = error {} else { check(false, "asWritten refused with \(error)") }
    }
    let compact = JSONWriter.bytes(value)
    check(reparse(compact) == value, "compact output does not parse back to the same value")
    check(JSONWriter.bytes(reparse(compact)) == compact, "writing the re-parsed value changes the bytes")
    let pretty = Array(JSONWriter.prettyString(value).utf8)
    check(reparse(pretty) == value, "pretty output does not parse back to the same value")

    if let copied { check(copied.bytes == compact, "compactStringObject(input) is not the writer's compact bytes") }
    for (name, text) in [("compact", compact), ("pretty", pretty)] {
        let copy = EncodedJSON.compactStringObject(text[...])
        if let copy { check(copy.bytes == compact, "compactStringObject(\(name) output) is not the compact bytes") }
        if isCopyable(value) { check(copy != nil, "compactStringObject refused the writer's \(name) output") }
    }
    return 0
}

/// `readValue` + `finish` with a reader of `maximumDepth`.
private func read(_ input: [UInt8], maximumDepth: Int) -> Result<JSONValue, JSONError> {
    input.withUnsafeBufferPointer { buffer in
        var reader = JSONReader(buffer, maximumDepth: maximumDepth)
        do throws(JSONError) {
            let value = try reader.readValue()
            try reader.finish()
            return .success(value)
        } catch {
            return .failure(error)
        }
    }
}

/// `skipValue` + `finish` must succeed exactly when reading did, with the same error,
/// and return the range of the value's text.
private func checkSkipAgrees(_ input: [UInt8], maximumDepth: Int, with expected: Result<JSONValue, JSONError>) {
    let skipped: Result<Range<Int>, JSONError> = input.withUnsafeBufferPointer { buffer in
        var reader = JSONReader(buffer, maximumDepth: maximumDepth)
        do throws(JSONError) {
            let range = try reader.skipValue()
            try reader.finish()
            return .success(range)
        } catch {
            return .failure(error)
        }
    }
    switch (expected, skipped) {
    case (.success, .success(let range)):
        var start = 0
        var end = input.count
        while start < end && isSpace(input[start]) { start += 1 }
        while end > start && isSpace(input[end - 1]) { end -= 1 }
        check(range == start..<end, "skipValue range \(range), expected \(start..<end) (depth \(maximumDepth))")
    case (.failure(let a), .failure(let b)):
        check(a == b, "read refused with \(a), skip with \(b) (depth \(maximumDepth))")
    case (let a, let b):
        check(false, "read gave \(a), skip gave \(b) (depth \(maximumDepth))")
    }
}

private func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

/// An object of strings whose keys are non-empty ASCII needing no escape and
/// whose strings need no `\u` escape: what `compactStringObject` documents as copyable.
private func isCopyable(_ value: JSONValue) -> Bool {
    guard case .object(let members) = value else { return false }
    for (key, member) in members {
        guard case .string(let s) = member, !key.isEmpty else { return false }
        if key.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 >= 0x80 }) { return false }
        if s.utf8.contains(where: { $0 < 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 && $0 != 0x08 && $0 != 0x0C }) {
            return false
        }
    }
    return true
}

private func reparse(_ bytes: [UInt8]) -> JSONValue {
    do throws(JSONError) {
        return try JSONParser.parse(bytes)
    } catch {
        fatalError("FuzzJSONParser: writer output is not JSON (\(error)): \(String(decoding: bytes, as: UTF8.self))")
    }
}

private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    FuzzDriver.check("FuzzJSONParser", condition, message())
}

@main enum FuzzMain {
    static func main() { FuzzDriver.run("FuzzJSONParser", fuzzOneInput) }
}

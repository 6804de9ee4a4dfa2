// Fuzz target: JSONParser on arbitrary bytes.
//
// Checks: a refusal names an offset inside the input; an accepted value
// written by JSONWriter (compact and pretty) parses back to an equal value,
// and writing that value again gives the same bytes.
import BridgeJSON
import BridgeSystem
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let value: JSONValue
    do throws(JSONError) {
        value = try JSONParser.parse(input)
    } catch {
        switch error {
        case .invalidUTF8(let offset), .syntax(let offset, _):
            check(offset >= 0 && offset <= input.count, "error offset \(offset) outside 0...\(input.count)")
        case .tooDeep(let limit): check(limit == JSONParser.defaultMaximumDepth, "tooDeep limit \(limit)")
        }
        return 0
    }
    let compact = JSONWriter.bytes(value)
    check(reparse(compact) == value, "compact output does not parse back to the same value")
    check(JSONWriter.bytes(reparse(compact)) == compact, "writing the re-parsed value changes the bytes")
    let pretty = Array(JSONWriter.prettyString(value).utf8)
    check(reparse(pretty) == value, "pretty output does not parse back to the same value")
    return 0
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

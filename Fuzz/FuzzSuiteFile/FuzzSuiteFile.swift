// Fuzz target: the suite file reader, `Suite.decode(bytes, path:)`, on arbitrary bytes.
//
// Checks: a refusal is `.corrupt` or `.newerFormat` naming the path (never an
// I/O error); accepted values encode to a document that decodes to equal
// values, and encoding is then a fixed point.
import BridgeSystem
import FuzzSupport
import SharedSuite

private let path = "/fuzz/suite.json"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let values: [String: SuiteValue]
    do throws(SuiteError) {
        values = try Suite.decode(input, path: path)
    } catch {
        switch error {
        case .corrupt(let p, _), .newerFormat(let p, _, _): check(p == path, "error names \(p), not \(path)")
        default: check(false, "decode failed with an unexpected error: \(error)")
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

private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    FuzzDriver.check("FuzzSuiteFile", condition, message())
}

@main enum FuzzMain {
    static func main() { FuzzDriver.run("FuzzSuiteFile", fuzzOneInput) }
}

import BridgeJSON
import BridgeSystem

/// A value of one of the types `UserDefaults` stores.
public enum SuiteValue: Equatable, Sendable {
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case data([UInt8])
    case date(WallTime)
    case array([SuiteValue])
    case dictionary([String: SuiteValue])

    /// The type's name as the CLI spells it (`-bool`, `-int`, …).
    public var typeName: String {
        switch self {
        case .bool: return "bool"
        case .int: return "int"
        case .double: return "float"
        case .string: return "string"
        case .data: return "data"
        case .date: return "date"
        case .array: return "array"
        case .dictionary: return "dict"
        }
    }
}

extension SuiteValue {
    /// The suite's JSON form. Plain JSON for bool, number, string, array and
    /// dictionary; `{"$data": base64}` and `{"$date": ISO 8601}` for data and
    /// dates; a dictionary that itself has exactly one key starting with `$`
    /// is wrapped as `{"$dict": {...}}` so it cannot be mistaken for a tag.
    public var json: JSONValue {
        switch self {
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .double(let d): return .double(d)
        case .string(let s): return .string(s)
        case .data(let bytes): return .object(["$data": .string(Base64.encode(bytes))])
        case .date(let t): return .object(["$date": .string(t.iso8601)])
        case .array(let elements): return .array(elements.map { $0.json })
        case .dictionary(let members):
            let inner = JSONValue.object(members.mapValues { $0.json })
            if members.count == 1, let key = members.keys.first, key.hasPrefix("$") {
                return .object(["$dict": inner])
            }
            return inner
        }
    }

    /// Reads the suite's JSON form.
    /// - Throws: `SuiteError.invalidValue` naming what is wrong (null, a bad tag).
    public init(json: JSONValue) throws(SuiteError) {
        switch json {
        case .null:
            throw .invalidValue("null is not a suite value (delete the key instead)")
        case .bool(let b): self = .bool(b)
        case .int(let i): self = .int(i)
        case .double(let d): self = .double(d)
        case .string(let s): self = .string(s)
        case .array(let elements):
            var out: [SuiteValue] = []
            out.reserveCapacity(elements.count)
            for element in elements { out.append(try SuiteValue(json: element)) }
            self = .array(out)
        case .object(let members):
            if members.count == 1, let (key, value) = members.first, key.hasPrefix("$") {
                switch key {
                case "$data":
                    guard let text = value.stringValue, let bytes = Base64.decode(text) else {
                        throw .invalidValue("$data must hold a base64 string")
                    }
                    self = .data(bytes)
                case "$date":
                    guard let text = value.stringValue, let date = WallTime(iso8601: text) else {
                        throw .invalidValue("$date must hold an ISO 8601 date such as 2026-11-29T18:57:02Z")
                    }
                    self = .date(date)
                case "$dict":
                    guard let inner = value.objectValue else { throw .invalidValue("$dict must hold an object") }
                    self = .dictionary(try SuiteValue.decodeMembers(inner))
                default:
                    throw .invalidValue("unknown tag \(key) (known: $data, $date, $dict)")
                }
                return
            }
            self = .dictionary(try SuiteValue.decodeMembers(members))
        }
    }

    /// Decodes an object of values (the `values` member of a suite document).
    public static func decodeMembers(_ members: [String: JSONValue]) throws(SuiteError) -> [String: SuiteValue] {
        var out: [String: SuiteValue] = [:]
        out.reserveCapacity(members.count)
        for (key, value) in members {
            do throws(SuiteError) {
                out[key] = try SuiteValue(json: value)
            } catch {
                guard case .invalidValue(let reason) = error else { throw error }
                throw .invalidValue("\(key): \(reason)")
            }
        }
        return out
    }
}

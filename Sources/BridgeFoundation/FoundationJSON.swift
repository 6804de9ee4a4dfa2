import BridgeJSON
import Foundation

/// Conversion between Foundation's property-list-style values (what
/// `JSONSerialization` and Safari's `userInfo[SFExtensionMessageKey]` hold:
/// `NSNumber`, `NSString`, `NSArray`, `NSDictionary`, `NSNull`) and
/// `JSONValue`, for a `SafariWebExtensionHandler` that hands its message to
/// a `BridgeEndpoint`. Never on the native-messaging host's path: the host
/// does not link Foundation.
public enum FoundationJSON {
    /// Why a Foundation value has no JSON form.
    public enum ConversionError: Error, Equatable, Sendable, CustomStringConvertible {
        /// A value of a type JSON has no form for (a date, data, an object).
        case unsupportedType(String, path: String)
        /// A number JSON cannot write (NaN, an infinity).
        case notFinite(path: String)
        /// A dictionary key that is not a string.
        case nonStringKey(path: String)

        public var description: String {
            switch self {
            case .unsupportedType(let type, let path): return "\(path): a \(type) has no JSON form"
            case .notFinite(let path): return "\(path): NaN and infinities have no JSON form"
            case .nonStringKey(let path): return "\(path): dictionary keys must be strings"
            }
        }
    }

    /// The JSON value of a Foundation value. Booleans stay booleans: an
    /// `NSNumber` made from a `Bool` (`kCFBooleanTrue`) is `.bool`, never 1.
    /// Integral numbers that fit 64 bits are `.int`, others `.double`.
    public static func value(_ object: Any?, path: String = "$") throws(ConversionError) -> JSONValue {
        guard let object else { return .null }
        switch object {
        case is NSNull: return .null
        case let number as NSNumber: return try value(number, path: path)
        case let string as String: return .string(string)
        case let array as [Any]:
            var out: [JSONValue] = []
            out.reserveCapacity(array.count)
            for (i, element) in array.enumerated() { out.append(try value(element, path: "\(path)[\(i)]")) }
            return .array(out)
        case let dictionary as [String: Any]:
            var out: [String: JSONValue] = [:]
            for (key, element) in dictionary { out[key] = try value(element, path: "\(path).\(key)") }
            return .object(out)
        case is [AnyHashable: Any]: throw .nonStringKey(path: path)
        default: throw .unsupportedType(String(describing: Swift.type(of: object)), path: path)
        }
    }

    private static func value(_ number: NSNumber, path: String) throws(ConversionError) -> JSONValue {
        if isBoolean(number) { return .bool(number.boolValue) }
        let type = String(cString: number.objCType)
        if type == "f" || type == "d" {  // a whole double (2.0) stays a double
            let double = number.doubleValue
            guard double.isFinite else { throw .notFinite(path: path) }
            return .double(double)
        }
        if type == "Q" || type == "L" || type == "I" {  // unsigned: may not fit Int64
            let unsigned = number.uint64Value
            if let int = Int(exactly: unsigned) { return .int(int) }
            return .double(Double(unsigned))
        }
        return .int(number.intValue)
    }

    /// True for the boolean `NSNumber`s (`true as NSNumber`, JSON `true`):
    /// Foundation makes them instances of its boolean subclass on Darwin and
    /// Linux alike (`__NSCFBoolean`), while `1 as NSNumber` is a plain number.
    /// (`number is Bool` cannot tell: every 0 and 1 bridges to `Bool`.)
    private static func isBoolean(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c" && String(describing: type(of: number)).contains("Boolean")
    }

    /// The Foundation form of a JSON value: `NSNull`, `Bool`, `Int`, `Double`,
    /// `String`, `[Any]`, `[String: Any]`, as `JSONSerialization` produces.
    public static func object(_ value: JSONValue) -> Any {
        switch value {
        case .null: return NSNull()
        case .bool(let b): return b
        case .int(let i): return i
        case .double(let d): return d
        case .string(let s): return s
        case .array(let elements): return elements.map(object)
        case .object(let members): return members.mapValues(object)
        }
    }
}

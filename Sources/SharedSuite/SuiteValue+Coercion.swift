/// The coercions of `UserDefaults`' typed reads, so an app or a person that
/// stores `1`, `"YES"` or `"true"` where a Boolean is expected gets what the
/// seeds' `bool(forKey:)` would give (swift-corelibs-foundation
/// `UserDefaults.swift`, and `NSString`'s `boolValue` / `integerValue`).
extension SuiteValue {
    /// `bool(forKey:)`: a Boolean as is; a number, true when not zero; a
    /// string, `NSString.boolValue` (true when it starts, after spaces, an
    /// optional sign and zeros, with `Y`, `y`, `T`, `t` or a digit 1–9). Nil for
    /// data, dates, arrays and dictionaries (`bool(forKey:)` gives false).
    public var coercedBool: Bool? {
        switch self {
        case .bool(let b): return b
        case .int(let i): return i != 0
        case .double(let d): return d != 0
        case .string(let s): return SuiteValue.stringBoolValue(s)
        case .data, .date, .array, .dictionary: return nil
        }
    }

    /// `integer(forKey:)`: a number (a double truncated toward zero, clamped),
    /// a Boolean as 1 or 0, a string's leading integer (`NSString.integerValue`,
    /// 0 when it has none). Nil for the other types.
    public var coercedInt: Int? {
        switch self {
        case .bool(let b): return b ? 1 : 0
        case .int(let i): return i
        case .double(let d):
            if d.isNaN { return 0 }
            return d >= 9.2e18 ? Int.max : d <= -9.2e18 ? Int.min : Int(d)
        case .string(let s): return SuiteValue.stringIntegerValue(s)
        case .data, .date, .array, .dictionary: return nil
        }
    }

    /// `double(forKey:)`: a number, a Boolean as 1 or 0, a string's leading
    /// number (0 when it has none). Nil for the other types.
    public var coercedDouble: Double? {
        switch self {
        case .bool(let b): return b ? 1 : 0
        case .int(let i): return Double(i)
        case .double(let d): return d
        case .string(let s): return SuiteValue.stringDoubleValue(s)
        case .data, .date, .array, .dictionary: return nil
        }
    }

    /// `string(forKey:)`: a string as is; a number as its decimal text (a
    /// Boolean is a number there: `"1"` or `"0"`; a whole double without
    /// `.0`). Nil for the other types.
    public var coercedString: String? {
        switch self {
        case .string(let s): return s
        case .bool(let b): return b ? "1" : "0"
        case .int(let i): return String(i)
        case .double(let d):
            if d == d.rounded(), abs(d) < 1e15 { return String(Int(d)) }
            return String(d)
        case .data, .date, .array, .dictionary: return nil
        }
    }

    /// The bytes after leading spaces, an optional sign, and (for
    /// `boolValue`) leading zeros.
    private static func numericStart(_ s: String) -> (negative: Bool, rest: Substring.UTF8View) {
        var rest = Substring(s).utf8[...]
        while let b = rest.first, b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { rest = rest.dropFirst() }
        var negative = false
        if let b = rest.first, b == UInt8(ascii: "+") || b == UInt8(ascii: "-") {
            negative = b == UInt8(ascii: "-")
            rest = rest.dropFirst()
        }
        return (negative, Substring(rest).utf8)
    }

    static func stringBoolValue(_ s: String) -> Bool {
        var (_, rest) = numericStart(s)
        while rest.first == UInt8(ascii: "0") { rest = Substring(rest.dropFirst()).utf8 }
        guard let b = rest.first else { return false }
        return b == UInt8(ascii: "Y") || b == UInt8(ascii: "y") || b == UInt8(ascii: "T") || b == UInt8(ascii: "t")
            || (b >= UInt8(ascii: "1") && b <= UInt8(ascii: "9"))
    }

    static func stringIntegerValue(_ s: String) -> Int {
        let (negative, rest) = numericStart(s)
        var value = 0
        for b in rest {
            guard b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") else { break }
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(Int(b - UInt8(ascii: "0")))
            if o1 || o2 { return negative ? Int.min : Int.max }
            value = a
        }
        return negative ? -value : value
    }

    static func stringDoubleValue(_ s: String) -> Double {
        let (negative, rest) = numericStart(s)
        // The longest prefix Double can read: digits, one point, an exponent.
        var text = ""
        var best = 0.0
        for b in rest {
            text.append(Character(Unicode.Scalar(b)))
            if let d = Double(text) { best = d } else if !"eE.+-".utf8.contains(b) { break }
            if text.utf8.count > 400 { break }
        }
        return negative ? -best : best
    }
}

/// Why a JSON text was refused.
public enum JSONError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bytes are not valid UTF-8 at `offset`.
    case invalidUTF8(offset: Int)
    /// A syntax error at `offset`.
    case syntax(offset: Int, reason: String)
    /// Arrays and objects nest deeper than `limit`.
    case tooDeep(limit: Int)
    /// An integer at `offset` that 64 bits cannot hold, where the reader was asked to keep
    /// integers exact (`JSONReader.exactIntegers`) instead of rounding them to a double.
    case inexactInteger(offset: Int)

    public var description: String {
        switch self {
        case .invalidUTF8(let offset): return "invalid UTF-8 at byte \(offset)"
        case .syntax(let offset, let reason): return "invalid JSON at byte \(offset): \(reason)"
        case .tooDeep(let limit): return "JSON nests deeper than \(limit) levels"
        case .inexactInteger(let offset):
            return "the integer at byte \(offset) does not fit 64 bits: it would be kept only approximately, as a "
                + "floating-point number (quote it to keep it as a string)"
        }
    }
}

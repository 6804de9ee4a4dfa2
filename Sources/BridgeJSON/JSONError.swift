/// Why a JSON text was refused.
public enum JSONError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bytes are not valid UTF-8 at `offset`.
    case invalidUTF8(offset: Int)
    /// A syntax error at `offset`.
    case syntax(offset: Int, reason: String)
    /// Arrays and objects nest deeper than `limit`.
    case tooDeep(limit: Int)
    /// Where the reader was asked to keep values as written (`JSONReader.asWritten`): at
    /// `offset`, something that would be kept otherwise (an integer 64 bits cannot hold, a
    /// number that would be 0, a key given twice in one object).
    case notAsWritten(offset: Int, reason: String)

    public var description: String {
        switch self {
        case .invalidUTF8(let offset): return "invalid UTF-8 at byte \(offset)"
        case .syntax(let offset, let reason): return "invalid JSON at byte \(offset): \(reason)"
        case .tooDeep(let limit): return "JSON nests deeper than \(limit) levels"
        case .notAsWritten(let offset, let reason): return "at byte \(offset): \(reason)"
        }
    }
}

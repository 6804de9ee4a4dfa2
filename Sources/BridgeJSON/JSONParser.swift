/// A strict RFC 8259 parser over UTF-8 bytes, without Foundation: builds a
/// `JSONValue` tree with `JSONReader`.
///
/// Duplicate object keys: the last one wins. Escaped lone surrogates, which
/// JavaScript's `JSON.stringify` can produce, become U+FFFD.
public struct JSONParser {
    /// Default limit on nested arrays and objects: the reader's, which enforces it.
    public static let defaultMaximumDepth = JSONReader.defaultMaximumDepth

    /// Parses one JSON text that must span all of `bytes` (surrounding white space allowed).
    /// `asWritten`: refuse what would be kept otherwise than written (`JSONReader.asWritten`).
    public static func parse(
        _ bytes: [UInt8], maximumDepth: Int = defaultMaximumDepth, asWritten: Bool = false
    ) throws(JSONError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { (buffer) throws(JSONError) -> JSONValue in
            var reader = JSONReader(buffer, maximumDepth: maximumDepth)
            reader.asWritten = asWritten
            let value = try reader.readValue()
            try reader.finish()
            return value
        }
    }

    /// Parses a JSON text held in a string.
    public static func parse(
        _ text: String, maximumDepth: Int = defaultMaximumDepth, asWritten: Bool = false
    ) throws(JSONError) -> JSONValue {
        try parse(Array(text.utf8), maximumDepth: maximumDepth, asWritten: asWritten)
    }
}

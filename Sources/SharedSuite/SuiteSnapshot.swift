import BridgeJSON
import BridgeSystem

/// The suite's values at one moment, with typed reads like `UserDefaults`.
///
/// A snapshot read from the file keeps the file's bytes and where each value
/// is; a value is decoded when it is asked for. The whole file was checked
/// when the snapshot was made (`Suite.readFile`), so a snapshot never holds a
/// value that cannot be decoded.
public struct SuiteSnapshot: Equatable, Sendable {
    /// A file's bytes and index. Kept in an optional, not in a two-case enum:
    /// a multi-payload enum stores its case in spare bits of a pointer, which
    /// hides that pointer from LeakSanitizer (a live snapshot looked leaked).
    private struct File: Sendable {
        var bytes: [UInt8]
        var index: SuiteIndex
    }

    private var file: File?
    private var decoded: [String: SuiteValue] = [:]
    /// The stored version these values came from; nil when there is none.
    public var version: ChangeToken?

    public init(values: [String: SuiteValue] = [:], version: ChangeToken? = nil) {
        self.decoded = values
        self.version = version
    }

    /// A snapshot over a checked suite file (`SuiteDocument.index`).
    init(fileBytes: [UInt8], index: SuiteIndex, version: ChangeToken?) {
        self.file = File(bytes: fileBytes, index: index)
        self.version = version
    }

    /// Every key and value (decodes them all).
    public var values: [String: SuiteValue] {
        get {
            guard let file else { return decoded }
            var values: [String: SuiteValue] = [:]
            values.reserveCapacity(file.index.count)
            file.bytes.withUnsafeBufferPointer { buffer in
                file.index.forEach(in: buffer) { key, slot in
                    values[key] = SuiteDocument.value(in: buffer, at: slot.range)
                }
            }
            return values
        }
        set {
            file = nil
            decoded = newValue
        }
    }

    /// The keys, without decoding any value.
    public var keys: [String] {
        guard let file else { return Array(decoded.keys) }
        var keys: [String] = []
        file.bytes.withUnsafeBufferPointer { buffer in file.index.forEach(in: buffer) { key, _ in keys.append(key) } }
        return keys
    }

    /// The value of `key`.
    public subscript(key: String) -> SuiteValue? {
        guard let file else { return decoded[key] }
        return file.bytes.withUnsafeBufferPointer { buffer in
            file.index.slot(key, in: buffer).flatMap { SuiteDocument.value(in: buffer, at: $0.range) }
        }
    }

    /// The suite file's own JSON text of `key`'s value (tagged form, as
    /// docs/SUITE.md describes), when this snapshot was read from a file.
    /// Lets a reader pass large plain values on without decoding them.
    public func storedJSON(_ key: String) -> ArraySlice<UInt8>? {
        guard let (bytes, slot) = slot(key) else { return nil }
        return bytes[slot.range]
    }

    /// The compact JSON of the dictionary of strings at `key`, copied from the
    /// file without decoding it when the file stores it as the writer writes
    /// one (checked when the file was read; see `StringMapShape`). Nil when
    /// it does not, or when this snapshot was not read from a file: decode the
    /// value then.
    /// - Parameters:
    ///   - key: the suite key of the dictionary.
    ///   - wrapper: when given, the caller's object key to nest the result
    ///     under: `{"wrapper":{…}}`, built in the same buffer (a large
    ///     vocabulary is not copied twice).
    public func encodedStringDictionary(_ key: String, nestedUnder wrapper: String? = nil) -> EncodedJSON? {
        copyStringDictionary(key, nestedUnder: wrapper) { text, storage in
            EncodedJSON.compact(checked: text, wrappedAs: wrapper, storage: &storage)
        }
    }

    /// `encodedStringDictionary` with the dictionary's entries indexed as
    /// they are copied (`IndexedJSON`: to be cut between entries).
    public func indexedStringDictionary(_ key: String, nestedUnder wrapper: String? = nil) -> IndexedJSON? {
        copyStringDictionary(key, nestedUnder: wrapper) { text, storage in
            EncodedJSON.compactIndexing(checked: text, wrappedAs: wrapper, storage: &storage)
        }
    }

    private func copyStringDictionary<Result>(
        _ key: String, nestedUnder wrapper: String?, _ copy: (ArraySlice<UInt8>, inout [UInt8]) -> Result?
    ) -> Result? {
        guard let (bytes, slot) = slot(key), slot.isCanonicalStringMap else { return nil }
        // A large buffer is backed by the kernel in one call, not page by page.
        let capacity = slot.range.count + (wrapper?.utf8.count ?? 0) + 8
        var storage = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            if capacity >= 256 << 10, let base = buffer.baseAddress { Platform.prefault(base, count: capacity) }
            count = 0
        }
        return copy(bytes[slot.range], &storage)
    }

    /// The value at `key` as `UserDefaults.bool(forKey:)` reads it
    /// (`SuiteValue.coercedBool`: `1`, `"YES"`, `"true"` are true); nil when
    /// missing or of a type it does not coerce.
    public func bool(_ key: String) -> Bool? { self[key]?.coercedBool }

    /// The value at `key` as `string(forKey:)` reads it (numbers become their
    /// decimal text); nil when missing or of another type.
    public func string(_ key: String) -> String? { self[key]?.coercedString }

    /// The value at `key` as `integer(forKey:)` reads it (`"42"` is 42);
    /// nil when missing or of a type it does not coerce.
    public func int(_ key: String) -> Int? { self[key]?.coercedInt }

    /// The value at `key` as `double(forKey:)` reads it; nil when missing or
    /// of a type it does not coerce.
    public func double(_ key: String) -> Double? { self[key]?.coercedDouble }

    /// The dictionary at `key`; nil when missing or of another type.
    public func dictionary(_ key: String) -> [String: SuiteValue]? {
        if case .dictionary(let d) = self[key] { return d }
        return nil
    }

    private func slot(_ key: String) -> ([UInt8], SuiteDocument.Slot)? {
        guard let file, let slot = file.bytes.withUnsafeBufferPointer({ file.index.slot(key, in: $0) }) else {
            return nil
        }
        return (file.bytes, slot)
    }

    /// Equal values from the same file version, however they are stored.
    public static func == (a: SuiteSnapshot, b: SuiteSnapshot) -> Bool {
        a.version == b.version && a.values == b.values
    }
}

import BridgeJSON
import BridgeSystem

/// The suite's values at one moment, with typed reads like `UserDefaults`.
///
/// A snapshot read from the file keeps the file's bytes and where each value
/// is; a value is decoded when it is asked for. The whole file was checked
/// when the snapshot was made (`Suite.readFile`), so a snapshot never holds a
/// value that cannot be decoded.
public struct SuiteSnapshot: Equatable, Sendable {
    private enum Storage: Sendable {
        case decoded([String: SuiteValue])
        case file(bytes: [UInt8], slots: SuiteDocument.Slots)
    }

    private var storage: Storage
    /// The file version these values came from; nil when there is no file.
    public var identity: FileIdentity?

    public init(values: [String: SuiteValue] = [:], identity: FileIdentity? = nil) {
        self.storage = .decoded(values)
        self.identity = identity
    }

    /// A snapshot over a checked suite file (`SuiteDocument.index`).
    init(fileBytes: [UInt8], slots: SuiteDocument.Slots, identity: FileIdentity?) {
        self.storage = .file(bytes: fileBytes, slots: slots)
        self.identity = identity
    }

    /// Every key and value (decodes them all).
    public var values: [String: SuiteValue] {
        get {
            switch storage {
            case .decoded(let values): return values
            case .file(let bytes, let slots):
                var values: [String: SuiteValue] = [:]
                values.reserveCapacity(slots.count)
                bytes.withUnsafeBufferPointer { buffer in
                    for (key, range) in slots { values[key] = SuiteDocument.value(in: buffer, at: range) }
                }
                return values
            }
        }
        set { storage = .decoded(newValue) }
    }

    /// The keys, without decoding any value.
    public var keys: [String] {
        switch storage {
        case .decoded(let values): return Array(values.keys)
        case .file(_, let slots): return Array(slots.keys)
        }
    }

    /// The value of `key`.
    public subscript(key: String) -> SuiteValue? {
        switch storage {
        case .decoded(let values): return values[key]
        case .file(let bytes, let slots):
            guard let range = slots[key] else { return nil }
            return bytes.withUnsafeBufferPointer { SuiteDocument.value(in: $0, at: range) }
        }
    }

    /// The suite file's own JSON text of `key`'s value (tagged form, as
    /// docs/SUITE.md describes), when this snapshot was read from a file.
    /// Lets a reader pass large plain values on without decoding them.
    public func storedJSON(_ key: String) -> ArraySlice<UInt8>? {
        guard case .file(let bytes, let slots) = storage, let range = slots[key] else { return nil }
        return bytes[range]
    }

    /// The compact JSON of the dictionary of strings at `key`, copied from the
    /// file without decoding it when it is stored plainly (see
    /// `EncodedJSON.compactStringObject`). Nil when it is not, or when this
    /// snapshot was not read from a file: decode the value then.
    /// - Parameter wrapper: when given, the result is `{"wrapper":{…}}`.
    public func encodedStringDictionary(_ key: String, wrappedAs wrapper: String? = nil) -> EncodedJSON? {
        guard let stored = storedJSON(key) else { return nil }
        // At most the stored size plus the wrapper; a large buffer is backed in one call, not page by page.
        let capacity = stored.count + (wrapper?.utf8.count ?? 0) + 8
        var storage = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            if capacity >= 256 << 10, let base = buffer.baseAddress { Platform.prefault(base, count: capacity) }
            count = 0
        }
        guard let encoded = EncodedJSON.compactStringObject(stored, wrappedAs: wrapper, storage: &storage) else {
            return nil
        }
        // A first key starting with `$` may make the object a tag, not a dictionary.
        let first = wrapper.map { $0.utf8.count + 6 } ?? 2  // past `{"wrapper":{"` or `{"`
        if encoded.bytes.count > first && encoded.bytes[first] == UInt8(ascii: "$") { return nil }
        return encoded
    }

    /// The boolean at `key`; nil when missing or of another type.
    public func bool(_ key: String) -> Bool? {
        if case .bool(let b) = self[key] { return b }
        return nil
    }

    /// The string at `key`; nil when missing or of another type.
    public func string(_ key: String) -> String? {
        if case .string(let s) = self[key] { return s }
        return nil
    }

    /// The integer at `key`; nil when missing or of another type.
    public func int(_ key: String) -> Int? {
        if case .int(let i) = self[key] { return i }
        return nil
    }

    /// The dictionary at `key`; nil when missing or of another type.
    public func dictionary(_ key: String) -> [String: SuiteValue]? {
        if case .dictionary(let d) = self[key] { return d }
        return nil
    }

    /// Equal values from the same file version, however they are stored.
    public static func == (a: SuiteSnapshot, b: SuiteSnapshot) -> Bool {
        a.identity == b.identity && a.values == b.values
    }
}

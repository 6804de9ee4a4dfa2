/// A zip archive written the same way every time: stored entries (method 0,
/// valid for the Chrome Web Store, addons.mozilla.org and CRX3), sorted by
/// the UTF-8 bytes of their paths, all dated 1980-01-01 00:00, mode 0644,
/// no extra fields, no comment. Same entries, same bytes.
public enum ZipArchive {
    /// One file in the archive.
    public struct Entry: Equatable, Sendable {
        /// Its path inside the archive: `background/background.js`.
        public var path: String
        /// Its content.
        public var bytes: [UInt8]

        public init(path: String, bytes: [UInt8]) {
            self.path = path
            self.bytes = bytes
        }
    }

    /// The most entries a zip without ZIP64 records holds.
    public static let maximumEntries = 0xFFFF
    /// The longest path accepted, in bytes.
    public static let maximumPathLength = 1_024

    /// DOS date 1980-01-01 (`(year - 1980) << 9 | month << 5 | day`) and time 00:00:00.
    static let dosDate: UInt16 = 1 << 5 | 1
    static let dosTime: UInt16 = 0
    /// Version made by: Unix (3) << 8, zip 2.0; so the external attributes carry a Unix mode.
    static let versionMadeBy: UInt16 = 3 << 8 | 20
    /// Version needed to extract a stored file: 1.0.
    static let versionNeeded: UInt16 = 10
    /// A regular file, mode 0644, in the high half.
    static let externalAttributes: UInt32 = 0o100644 << 16

    /// The archive of `entries`, sorted by path (bytewise).
    /// - Parameter entries: the files; paths must pass `check(_:)` and be unique.
    /// - Returns: the zip's bytes.
    /// - Throws: `PackError.unsafeName` for a bad or repeated path, `.archiveTooLarge` beyond zip's 32-bit fields.
    public static func make(_ entries: [Entry]) throws(PackError) -> [UInt8] {
        let sorted = entries.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        guard sorted.count <= maximumEntries else { throw .archiveTooLarge("\(sorted.count) files") }
        var previous: String?
        for entry in sorted {
            try check(entry.path)
            if entry.path == previous { throw .unsafeName(name: entry.path, reason: "it is there twice") }
            previous = entry.path
        }
        var out: [UInt8] = []
        out.reserveCapacity(sorted.reduce(22) { $0 + $1.bytes.count + 2 * ($1.path.utf8.count + 46) })
        var central: [UInt8] = []
        for entry in sorted {
            let name = Array(entry.path.utf8)
            guard let offset = UInt32(exactly: out.count), let size = UInt32(exactly: entry.bytes.count),
                size < UInt32.max, offset < UInt32.max
            else { throw .archiveTooLarge("more than 4 GiB") }
            let crc = CRC32.checksum(entry.bytes)
            // Local file header.
            out.appendLittleEndian(UInt32(0x0403_4b50))
            out.appendLittleEndian(versionNeeded)
            out.appendLittleEndian(UInt16(0))  // flags
            out.appendLittleEndian(UInt16(0))  // method: stored
            out.appendLittleEndian(dosTime)
            out.appendLittleEndian(dosDate)
            out.appendLittleEndian(crc)
            out.appendLittleEndian(size)  // compressed
            out.appendLittleEndian(size)  // uncompressed
            out.appendLittleEndian(UInt16(name.count))
            out.appendLittleEndian(UInt16(0))  // extra field length
            out += name
            out += entry.bytes
            // Its central directory record.
            central.appendLittleEndian(UInt32(0x0201_4b50))
            central.appendLittleEndian(versionMadeBy)
            central.appendLittleEndian(versionNeeded)
            central.appendLittleEndian(UInt16(0))  // flags
            central.appendLittleEndian(UInt16(0))  // method
            central.appendLittleEndian(dosTime)
            central.appendLittleEndian(dosDate)
            central.appendLittleEndian(crc)
            central.appendLittleEndian(size)
            central.appendLittleEndian(size)
            central.appendLittleEndian(UInt16(name.count))
            central.appendLittleEndian(UInt16(0))  // extra
            central.appendLittleEndian(UInt16(0))  // comment
            central.appendLittleEndian(UInt16(0))  // disk number
            central.appendLittleEndian(UInt16(0))  // internal attributes
            central.appendLittleEndian(externalAttributes)
            central.appendLittleEndian(offset)
            central += name
        }
        guard let centralOffset = UInt32(exactly: out.count), let centralSize = UInt32(exactly: central.count),
            centralOffset < UInt32.max
        else { throw .archiveTooLarge("more than 4 GiB") }
        out += central
        // End of central directory.
        out.appendLittleEndian(UInt32(0x0605_4b50))
        out.appendLittleEndian(UInt16(0))  // this disk
        out.appendLittleEndian(UInt16(0))  // disk with the central directory
        out.appendLittleEndian(UInt16(sorted.count))
        out.appendLittleEndian(UInt16(sorted.count))
        out.appendLittleEndian(centralSize)
        out.appendLittleEndian(centralOffset)
        out.appendLittleEndian(UInt16(0))  // comment length
        return out
    }

    /// Checks that `path` is a safe zip entry name: relative, `/` between
    /// non-empty components, none `.` or `..`, none ending in a dot or a
    /// space (Windows drops those), only ASCII letters, digits and
    /// `. _ - @ + ~ ( ) [ ] , ! $ & = ;` and spaces inside a component (no
    /// `\`, `:`, quotes, wildcards or controls), at most 1,024 bytes.
    /// - Throws: `PackError.unsafeName` saying which rule it breaks.
    public static func check(_ path: String) throws(PackError) {
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty else { throw .unsafeName(name: path, reason: "it is empty") }
        guard bytes.count <= maximumPathLength else {
            throw .unsafeName(name: path, reason: "it is longer than \(maximumPathLength) bytes")
        }
        if bytes.first == UInt8(ascii: "/") { throw .unsafeName(name: path, reason: "it is absolute") }
        for component in bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            if component.isEmpty { throw .unsafeName(name: path, reason: "it has an empty component ('//')") }
            if component.elementsEqual([0x2E]) || component.elementsEqual([0x2E, 0x2E]) {
                throw .unsafeName(name: path, reason: "it has a '.' or '..' component")
            }
            if let last = component.last, last == UInt8(ascii: ".") || last == UInt8(ascii: " ") {
                throw .unsafeName(name: path, reason: "a component ends in a dot or a space")
            }
            if let bad = component.first(where: { !isAllowed($0) }) {
                let shown = bad >= 0x20 && bad < 0x7F ? "'\(Character(Unicode.Scalar(bad)))'" : "byte \(bad)"
                throw .unsafeName(name: path, reason: "it contains \(shown)")
            }
        }
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("._-@+~()[],!$&=; ".utf8).contains(byte)
        }
    }

    /// The entries of a zip this type wrote (stored entries, no ZIP64),
    /// read from its central directory, each checked against its CRC-32.
    /// - Parameter bytes: the archive.
    /// - Returns: its entries in archive order.
    /// - Throws: `PackError.corruptArchive` saying what is wrong where.
    public static func entries(in bytes: [UInt8]) throws(PackError) -> [Entry] {
        guard bytes.count >= 22 else { throw .corruptArchive("shorter than an end record") }
        let end = bytes.count - 22
        guard bytes.readLittleEndianUInt32(at: end) == 0x0605_4b50 else {
            throw .corruptArchive("no end record at the end (a comment, or not a zip)")
        }
        let count = Int(bytes.readLittleEndianUInt16(at: end + 10))
        let centralSize = Int(bytes.readLittleEndianUInt32(at: end + 12))
        var at = Int(bytes.readLittleEndianUInt32(at: end + 16))
        guard at + centralSize == end else { throw .corruptArchive("the central directory is not before the end") }
        var out: [Entry] = []
        for _ in 0..<count {
            guard at + 46 <= end, bytes.readLittleEndianUInt32(at: at) == 0x0201_4b50 else {
                throw .corruptArchive("bad central record at \(at)")
            }
            let method = bytes.readLittleEndianUInt16(at: at + 10)
            let crc = bytes.readLittleEndianUInt32(at: at + 16)
            let size = Int(bytes.readLittleEndianUInt32(at: at + 20))
            let stored = Int(bytes.readLittleEndianUInt32(at: at + 24))
            let nameLength = Int(bytes.readLittleEndianUInt16(at: at + 28))
            let skip = Int(bytes.readLittleEndianUInt16(at: at + 30)) + Int(bytes.readLittleEndianUInt16(at: at + 32))
            let local = Int(bytes.readLittleEndianUInt32(at: at + 42))
            guard method == 0, size == stored, at + 46 + nameLength + skip <= end else {
                throw .corruptArchive("entry at \(at) is compressed or runs past the directory")
            }
            let name = String(decoding: bytes[(at + 46)..<(at + 46 + nameLength)], as: UTF8.self)
            at += 46 + nameLength + skip
            guard local + 30 <= bytes.count, bytes.readLittleEndianUInt32(at: local) == 0x0403_4b50 else {
                throw .corruptArchive("\(name): bad local header")
            }
            let start =
                local + 30 + Int(bytes.readLittleEndianUInt16(at: local + 26))
                + Int(bytes.readLittleEndianUInt16(at: local + 28))
            guard start + size <= bytes.count else { throw .corruptArchive("\(name): data runs past the end") }
            let content = Array(bytes[start..<(start + size)])
            guard CRC32.checksum(content) == crc else { throw .corruptArchive("\(name): CRC-32 mismatch") }
            out.append(Entry(path: name, bytes: content))
        }
        return out
    }
}

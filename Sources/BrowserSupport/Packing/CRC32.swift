/// CRC-32 as zip records it (ISO 3309 / ITU-T V.42: polynomial 0xEDB88320
/// reflected, initial value and final XOR 0xFFFFFFFF).
public enum CRC32 {
    /// The 256 remainders of one byte, computed once.
    private static let table: [UInt32] = (0..<256).map { (index: UInt32) -> UInt32 in
        var value = index
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    /// The checksum of `bytes`.
    /// - Parameter bytes: the data, for example a file's content.
    /// - Returns: the CRC-32 (`"123456789"` gives `0xCBF43926`).
    public static func checksum(_ bytes: [UInt8]) -> UInt32 {
        update(0, bytes)
    }

    /// Continues `crc` (a checksum of earlier bytes, 0 to start) over `bytes`.
    public static func update(_ crc: UInt32, _ bytes: [UInt8]) -> UInt32 {
        var value = ~crc
        bytes.withUnsafeBufferPointer { buffer in
            for byte in buffer {
                value = table[Int((value ^ UInt32(byte)) & 0xFF)] ^ (value >> 8)
            }
        }
        return ~value
    }
}

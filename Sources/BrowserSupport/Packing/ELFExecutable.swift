/// What a browser needs to know of a host executable before it goes into a
/// package: whether it runs on a machine without the Swift toolchain.
public enum ELFExecutable {
    /// True when `bytes` are a 64-bit ELF executable with no program
    /// interpreter (`PT_INTERP`): a static executable, which needs no shared
    /// library (no Swift runtime, no libc) on the machine it is installed on.
    /// False for a dynamic executable, and for anything that is not ELF64.
    public static func isStatic(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 64, bytes[0] == 0x7F, bytes[1] == 0x45, bytes[2] == 0x4C, bytes[3] == 0x46,
            bytes[4] == 2, bytes[5] == 1  // ELFCLASS64, little-endian
        else { return false }
        func integer(_ offset: Int, _ width: Int) -> Int? {
            guard offset >= 0, offset + width <= bytes.count else { return nil }
            var value = 0
            for index in (0..<width).reversed() { value = value << 8 | Int(bytes[offset + index]) }
            return value
        }
        guard let table = integer(0x20, 8), let entrySize = integer(0x36, 2), let count = integer(0x38, 2),
            entrySize >= 4
        else { return false }
        for index in 0..<count {
            guard let type = integer(table + index * entrySize, 4) else { return false }
            if type == 3 { return false }  // PT_INTERP: the dynamic loader, so shared libraries
        }
        return true
    }
}

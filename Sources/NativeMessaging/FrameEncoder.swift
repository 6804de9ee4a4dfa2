/// Builds native-messaging frames: a native-order 32-bit byte count, then the body.
public enum FrameEncoder {
    /// Writes the header of a frame whose body is `length` bytes over the
    /// first 4 bytes of `frame` (room the caller left for it).
    /// - Throws: `FrameError.bodyTooLarge` when the length does not fit 32 bits.
    public static func writeHeader(length: Int, into frame: inout [UInt8]) throws(FrameError) {
        guard let value = UInt32(exactly: length) else {
            throw .bodyTooLarge(length: length, maximum: Int(UInt32.max))
        }
        precondition(frame.count >= 4, "no room for the frame header")
        withUnsafeBytes(of: value) { header in frame.withUnsafeMutableBytes { $0.copyMemory(from: header) } }
    }

    /// Returns header and body in one buffer, ready for one write.
    /// - Throws: `FrameError.bodyTooLarge` when the body does not fit 32 bits.
    public static func encode(_ body: [UInt8]) throws(FrameError) -> [UInt8] {
        guard let length = UInt32(exactly: body.count) else {
            throw .bodyTooLarge(length: body.count, maximum: Int(UInt32.max))
        }
        var frame = [UInt8]()
        frame.reserveCapacity(4 + body.count)
        withUnsafeBytes(of: length) { frame.append(contentsOf: $0) }
        frame.append(contentsOf: body)
        return frame
    }
}

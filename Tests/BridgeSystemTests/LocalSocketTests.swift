import BridgeSystem
import TestSupport
import Testing

@Suite struct LocalSocketTests {
    @Test func datagrams_arriveWholeAndInOrder() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let receiver = try LocalSocket.bindDatagram(tmp.path + "/s")
        defer { receiver.close() }
        let sender = try LocalSocket.connectDatagram(tmp.path + "/s")
        defer { sender.close() }
        #expect(sender.sendDatagram(Array("first".utf8)))
        #expect(sender.sendDatagram([UInt8](repeating: 7, count: 40_000)))
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var sizes: [Int] = []
        for _ in 0..<2 {
            let result = try buffer.withUnsafeMutableBytes { try receiver.readOnce(into: $0) }
            if case .bytes(let n) = result { sizes.append(n) }
        }
        #expect(sizes == [5, 40_000])
        #expect(Array(buffer[0..<5]) == [7, 7, 7, 7, 7])
        // Non-blocking: nothing more waits, and reading says so at once.
        let empty = buffer.withUnsafeMutableBytes { raw in
            Result { () throws(SystemError) in try receiver.readOnce(into: raw) }
        }
        #expect(throws: SystemError.self) { try empty.get() }
    }

    @Test func aPathTooLongForASocket_isRefusedBeforeAnySocketIsMade() {
        let path = "/tmp/" + String(repeating: "x", count: LocalSocket.maximumPathBytes)
        #expect(throws: SystemError.self) { try LocalSocket.bindDatagram(path) }
        #expect(throws: SystemError.self) { try LocalSocket.connectStream(path) }
    }

    @Test func connectingToNothing_fails() {
        #expect(throws: SystemError.self) { try LocalSocket.connectStream("/nonexistent-folder/s") }
        #expect(throws: SystemError.self) { try LocalSocket.connectDatagram("/nonexistent-folder/s") }
    }

    @Test func aSocketAlreadyBound_isNotBoundAgain() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let first = try LocalSocket.bindDatagram(tmp.path + "/s")
        defer { first.close() }
        #expect(throws: SystemError.self) { try LocalSocket.bindDatagram(tmp.path + "/s") }
    }
}

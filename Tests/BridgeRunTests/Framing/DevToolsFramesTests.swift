import BridgeJSON
import Testing

@testable import BridgeRun

@Suite struct DevToolsFramesTests {
    @Test func encode_isJSONThenNUL() {
        #expect(DevToolsFrames.encode(["id": 1]) == Array("{\"id\":1}".utf8) + [0])
    }

    @Test func messagesSplitAcrossReads_comeOutWholeAndInOrder() throws {
        var frames = DevToolsFrames()
        let bytes = DevToolsFrames.encode(["id": 1, "method": "a"]) + DevToolsFrames.encode(["id": 2])
        frames.append(bytes[0..<5])
        #expect(try frames.next() == nil)
        frames.append(bytes[5..<(bytes.count - 3)])
        #expect(try frames.next()?["id"] == 1)
        #expect(try frames.next() == nil)
        frames.append(bytes[(bytes.count - 3)...])
        #expect(try frames.next()?["id"] == 2)
        #expect(try frames.next() == nil)
    }

    @Test func aMessageThatIsNotAnObject_throws() {
        var frames = DevToolsFrames()
        frames.append(Array("[1,2]".utf8)[...] + [0])
        #expect(throws: DebuggerFramingError.self) { try frames.next() }
        var broken = DevToolsFrames()
        broken.append(Array("{\"id\":".utf8)[...] + [0])
        #expect(throws: DebuggerFramingError.self) { try broken.next() }
    }

    @Test func aMessageOverTheLimit_throwsInsteadOfGrowing() {
        var frames = DevToolsFrames()
        frames.append([UInt8](repeating: UInt8(ascii: " "), count: DevToolsFrames.maximumMessageBytes + 1)[...])
        #expect(throws: DebuggerFramingError.tooLong(limit: DevToolsFrames.maximumMessageBytes)) { try frames.next() }
    }
}

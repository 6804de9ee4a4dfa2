import BridgeJSON
import Testing

@testable import BridgeRun

@Suite struct RemoteDebuggingFramesTests {
    @Test func encode_prefixesTheLengthInBytes_notCharacters() {
        let bytes = RemoteDebuggingFrames.encode(["to": "rööt"])
        #expect(String(decoding: bytes, as: UTF8.self) == "15:{\"to\":\"rööt\"}")
    }

    @Test func aSplitLengthAndASplitBody_waitForTheRest() throws {
        var frames = RemoteDebuggingFrames()
        let bytes = RemoteDebuggingFrames.encode(["from": "root", "applicationType": "browser"])
        frames.append(bytes[0..<1])
        #expect(try frames.next() == nil)
        frames.append(bytes[1..<6])
        #expect(try frames.next() == nil)
        frames.append(bytes[6...] + RemoteDebuggingFrames.encode(["from": "a"]))
        #expect(try frames.next()?["applicationType"] == "browser")
        #expect(try frames.next()?["from"] == "a")
        #expect(try frames.next() == nil)
    }

    @Test(arguments: ["ab:{}", ":{}", "12x4:{}", "1234567890:"])
    func aLengthThatIsNotDigits_orTooLong_throws(text: String) {
        var frames = RemoteDebuggingFrames()
        frames.append(Array(text.utf8)[...])
        #expect(throws: DebuggerFramingError.self) { try frames.next() }
    }

    @Test func aLengthOverTheLimit_throwsBeforeTheBodyArrives() {
        var frames = RemoteDebuggingFrames()
        frames.append(Array("\(RemoteDebuggingFrames.maximumMessageBytes + 1):".utf8)[...])
        #expect(throws: DebuggerFramingError.tooLong(limit: RemoteDebuggingFrames.maximumMessageBytes)) {
            try frames.next()
        }
    }

    @Test func digitsWithoutAColonYet_wait() throws {
        var frames = RemoteDebuggingFrames()
        frames.append(Array("123".utf8)[...])
        #expect(try frames.next() == nil)
    }
}

import Testing

@testable import BridgeRun

@Suite struct LineBufferTests {
    @Test func piecesBecomeLines_andTheTailKeepsTheLast() {
        var buffer = LineBuffer(keep: 2)
        #expect(buffer.add(Array("one\ntw".utf8)[...]) == ["one"])
        #expect(buffer.add(Array("o\nthree\nfo".utf8)[...]) == ["two", "three"])
        #expect(buffer.finish() == ["fo"])
        #expect(buffer.tail == ["three", "fo"])
        #expect(buffer.finish() == [])
    }
}

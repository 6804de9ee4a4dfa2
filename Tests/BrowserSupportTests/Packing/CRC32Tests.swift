import Testing

@testable import BrowserSupport

@Suite struct CRC32Tests {
    @Test func knownAnswers() {
        #expect(CRC32.checksum([]) == 0)
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum(Array("The quick brown fox jumps over the lazy dog".utf8)) == 0x414F_A339)
        #expect(CRC32.checksum([0]) == 0xD202_EF8D)
    }

    @Test func update_inPieces_equalsWhole() {
        let text = Array("The quick brown fox jumps over the lazy dog".utf8)
        #expect(CRC32.update(CRC32.checksum(Array(text[..<10])), Array(text[10...])) == CRC32.checksum(text))
    }
}

import Testing

@testable import BridgeJSON

@Suite struct UTF8OrderTests {
    func compare(_ a: String, _ b: String) -> Int {
        Array(a.utf8).withUnsafeBufferPointer { pa in
            Array(b.utf8).withUnsafeBufferPointer { UTF8Order.compare(pa, $0) }
        }
    }

    /// A total order over bytes: NFC and NFD spellings of one character are different texts in
    /// a fixed order (String's `<` calls neither less), and a prefix sorts first.
    @Test func compare_isByteOrder_prefixFirst_andTotalWhenNormalizationsMix() {
        #expect(compare("e\u{301}", "é") < 0 && compare("é", "e\u{301}") > 0)
        #expect(compare("ab", "abc") < 0 && compare("abc", "ab") > 0)
        #expect(compare("abc", "abc") == 0)
        #expect(compare("Z", "a") < 0)
        #expect(compare("", "a") < 0)
    }

    @Test func precedes_comparesRangesOfOneBuffer() {
        let text = Array("b,a,ab".utf8)
        text.withUnsafeBufferPointer { buffer in
            #expect(UTF8Order.precedes(2..<3, 0..<1, in: buffer))
            #expect(UTF8Order.precedes(2..<3, 4..<6, in: buffer))
            #expect(!UTF8Order.precedes(0..<1, 0..<1, in: buffer))
        }
    }
}

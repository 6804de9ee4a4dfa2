import Testing

@testable import BridgeJSON

@Suite struct Base64Tests {
    /// RFC 4648, section 10.
    @Test(arguments: [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ])
    func rfc4648Vectors_encodeAndDecode(plain: String, encoded: String) {
        #expect(Base64.encode(Array(plain.utf8)) == encoded)
        #expect(Base64.decode(encoded) == Array(plain.utf8))
    }

    @Test func everyByte_roundTrips_withTheWholeAlphabet() {
        let bytes = (0...255).map { UInt8($0) } + [0xFB, 0xFF]
        let encoded = Base64.encode(bytes)
        #expect(encoded.contains("+") && encoded.contains("/"))
        #expect(Base64.decode(encoded) == bytes)
    }

    /// Only canonical, padded base64 decodes: no URL-safe alphabet, no white space, no missing
    /// or misplaced padding.
    @Test(arguments: ["Zg", "Zg=", "Zm9", "Zm9$", "Zm9v\n", "Zm-v", "Zm_v", "Z===", "=Zg=", "Zg==Zg==", "Zm9 "])
    func nonCanonical_isRefused(text: String) {
        #expect(Base64.decode(text) == nil)
    }
}

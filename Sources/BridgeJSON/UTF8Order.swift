/// The byte order of UTF-8 texts: the order `JSONWriter` writes object keys
/// in, and the order the suite index keeps its keys in. A total order, unlike
/// `String`'s `<` when NFC and NFD text mix.
public enum UTF8Order {
    /// Negative, zero or positive as `a` sorts before, equal to or after `b`.
    public static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let n = Swift.min(a.count, b.count)
        var i = 0
        while i < n {
            if a[i] != b[i] { return a[i] < b[i] ? -1 : 1 }
            i += 1
        }
        return a.count - b.count
    }

    /// True when the text at `a` sorts strictly before the text at `b`, both in `buffer`.
    public static func precedes(_ a: Range<Int>, _ b: Range<Int>, in buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        compare(UnsafeBufferPointer(rebasing: buffer[a]), UnsafeBufferPointer(rebasing: buffer[b])) < 0
    }
}

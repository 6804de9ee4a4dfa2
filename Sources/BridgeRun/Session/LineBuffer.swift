/// Splits bytes that arrive in pieces (a child's output) into whole lines.
struct LineBuffer {
    private var partial: [UInt8] = []
    /// The last lines seen, at most `keep` of them (what a failed browser printed last).
    private(set) var tail: [String] = []
    let keep: Int

    init(keep: Int = 30) { self.keep = keep }

    /// The lines `bytes` completes.
    mutating func add(_ bytes: ArraySlice<UInt8>) -> [String] {
        partial.append(contentsOf: bytes)
        var lines: [String] = []
        while let newline = partial.firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(String(decoding: partial[..<newline], as: UTF8.self))
            partial.removeFirst(newline + 1)
        }
        remember(lines)
        return lines
    }

    /// What is left without a line break, as a last line.
    mutating func finish() -> [String] {
        guard !partial.isEmpty else { return [] }
        let line = [String(decoding: partial, as: UTF8.self)]
        partial = []
        remember(line)
        return line
    }

    private mutating func remember(_ lines: [String]) {
        tail += lines
        if tail.count > keep { tail.removeFirst(tail.count - keep) }
    }
}

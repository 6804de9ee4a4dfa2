/// "did you mean …?" for a mistyped command, subcommand or option, as git and cargo say it.
enum Suggestion {
    /// The candidate closest to `word` by edit distance (a swap of two neighbours counts as one
    /// edit), when it is close enough to be a typo: at most 2 edits, and fewer than half the word.
    static func closest(to word: String, among candidates: [String]) -> String? {
        let scored = candidates.map { ($0, distance(word, $0)) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 > 0, best.1 <= 2, best.1 * 2 < word.count else {
            return nil
        }
        return best.0
    }

    /// `message`, then ` (did you mean `X`?)` when a candidate is close to `word`.
    static func message(_ message: String, for word: String, among candidates: [String]) -> String {
        guard let near = closest(to: word, among: candidates) else { return message }
        return message + " (did you mean `\(near)`?)"
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}

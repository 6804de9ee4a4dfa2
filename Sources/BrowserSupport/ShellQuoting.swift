extension String {
    /// This text as one shell word, for commands the CLI and doctor print for the user to
    /// paste: unchanged when it holds only `+,-./0-9:A-Z_a-z`, else in single
    /// quotes with each `'` written as `'\''`.
    public var shellQuoted: String {
        let plain = utf8.allSatisfy {
            ($0 >= 0x2B && $0 <= 0x3A) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x5F
        }
        if plain && !isEmpty { return self }
        var out = "'"
        for c in self { out += c == "'" ? "'\\''" : String(c) }
        return out + "'"
    }
}

import SharedSuite

/// `extension-bridge write KEY [-TYPE] VALUE…` or `write KEY [-TYPE] --from FILE|-`: declared,
/// checked and run here; the value words are `ValueParser`'s.
enum WriteVerb: Verb {
    static let from = OptionSpec(
        "--from", value: "FILE",
        help: "read the one value from FILE (- for stdin) instead of an operand: for values over the "
            + "kernel's argument limit (~128 KiB); one trailing newline is dropped", completion: .file)

    static let spec = CommandSpec(
        ["write"], section: "Suite (like `defaults`)",
        abstract: "set KEY: " + ValueParser.typeFlags.joined(separator: " "),
        discussion: """
            VALUE alone is a string. Types:
              -bool true|false   -int N   -float X   -string S
              -date 2026-11-29T18:57:02Z   -data BASE64
              -array V1 V2…  (strings)   -dict K1 V1 K2 V2…  (strings)
              -json TEXT  (any JSON but null; {"$date":…} and {"$data":…} tags)
            Example: extension-bridge write vocabulary -dict blue blauw red rood
            A large value: extension-bridge write vocabulary -json --from words.json
            (--from takes every type but -array and -dict, whose large form is -json).
            A key the host reads (extensionEnabled, extensionTheme, vocabulary)
            written with a type it will not read as meant is written, with a
            warning on stderr and the right command; a vocabulary written while
            the extension is off notes how to turn it on.
            """,
        options: [from],
        operands: [
            OperandSpec("KEY"),
            OperandSpec("[-TYPE] VALUE", optional: true, variadic: true, completion: .words(ValueParser.typeFlags)),
        ])

    static func run(_ invocation: Invocation, context: CLIContext) throws(CLIError) -> Int32 {
        let key = invocation.operands[0]
        let words = Array(invocation.operands.dropFirst())
        guard !key.isEmpty else { throw .usage("the key is empty", verb: "write") }
        if ValueParser.type(key) != nil {
            let swapped = (words.first.map { [$0, key] } ?? [key]) + words.dropFirst()
            throw .usage(
                "KEY comes before -TYPE: extension-bridge write \(swapped.joined(separator: " "))", verb: "write")
        }
        let value: SuiteValue
        if let source = invocation[from] {
            value = try ValueParser.parse(try fromOperands(words, source: source, context: context))
        } else {
            guard !words.isEmpty else {
                throw .usage("`write` takes KEY [-TYPE] VALUE…, or KEY [-TYPE] --from FILE", verb: "write")
            }
            value = try ValueParser.parse(words)
        }
        let commands = try invocation.suiteCommands(context)
        let existed = commands.store.container.exists
        try suite { () throws(SuiteError) in try commands.store.update { $0[key] = value } }
        commands.noteIfCreated(existed: existed)
        commands.warnAboutKnownKeys([key: value])
        commands.noteIfOff(after: [key])
        return 0
    }

    /// The operands `ValueParser` reads for `--from`: the type given (a string when none) and
    /// the text of `source` (`-`: stdin), less one trailing newline.
    static func fromOperands(_ words: [String], source: String, context: CLIContext) throws(CLIError) -> [String] {
        guard words.count <= 1, let type = words.first.map(ValueParser.type) ?? "-string" else {
            throw .usage(
                "with --from, write takes KEY and at most a -TYPE (\(ValueParser.typeFlags.joined(separator: " ")))",
                verb: "write")
        }
        if type == "-array" || type == "-dict" {
            throw .usage("--from reads one value; write an array or a dictionary with -json --from", verb: "write")
        }
        let bytes = try context.readInput(source)
        var text = bytes[...]
        // One trailing line break, a file's last: "\n" or a Windows "\r\n".
        if text.last == UInt8(ascii: "\n") { text = text.dropLast() }
        if text.last == UInt8(ascii: "\r"), bytes.last == UInt8(ascii: "\n") { text = text.dropLast() }
        guard let string = String(validating: text, as: UTF8.self) else {
            throw CLIError(.data, "\(source) is not UTF-8 text (for bytes, write its base64 with -data --from)")
        }
        return [type, string]
    }
}

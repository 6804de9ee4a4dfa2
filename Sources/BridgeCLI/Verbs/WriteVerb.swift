import SharedSuite

/// `extension-bridge write KEY [-TYPE] VALUE…`: declared and run here; the value words are
/// `ValueParser`'s, their completions `ValueTypes`' (all three in this folder).
enum WriteVerb: Verb {
    static let spec = CommandSpec(
        ["write"], section: "Suite (like `defaults`)",
        abstract: "set KEY: -bool -int -float -string -date -data -array -dict -json",
        discussion: """
            VALUE alone is a string. Types:
              -bool true|false   -int N   -float X   -string S
              -date 2026-11-29T18:57:02Z   -data BASE64
              -array V1 V2…  (strings)   -dict K1 V1 K2 V2…  (strings)
              -json TEXT  (any JSON but null; {"$date":…} and {"$data":…} tags)
            Example: extension-bridge write vocabulary -dict blue blauw red rood
            A key the host reads (extensionEnabled, extensionTheme, vocabulary)
            written with a type it will not read as meant is written, with a
            warning on stderr and the right command; a vocabulary written while
            the extension is off notes how to turn it on.
            """,
        operands: [
            OperandSpec("KEY"),
            OperandSpec("[-TYPE] VALUE", variadic: true, completion: .words(ValueTypes.flags)),
        ])

    static func run(_ invocation: Invocation, context: CLIContext) throws(CLIError) -> Int32 {
        let commands = try invocation.suiteCommands(context)
        let key = invocation.operands[0]
        guard !key.isEmpty else { throw .usage("the key is empty", verb: "write") }
        let value = try ValueParser.parse(Array(invocation.operands.dropFirst()))
        try suite { () throws(SuiteError) in try commands.store.update { $0[key] = value } }
        commands.warnAboutKnownKeys([key: value])
        commands.noteIfOff(after: [key])
        return 0
    }
}

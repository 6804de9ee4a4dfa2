/// `extension-bridge write KEY [-TYPE] VALUE…`.
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
            """,
        operands: [
            OperandSpec("KEY"),
            OperandSpec("[-TYPE] VALUE", variadic: true, completion: .words(ValueTypes.flags)),
        ])

    static func run(_ invocation: Invocation, context: CLIContext) throws(CLIError) -> Int32 {
        try invocation.suiteCommands(context).write(invocation.operands[0], Array(invocation.operands.dropFirst()))
        return 0
    }
}

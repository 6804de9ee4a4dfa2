/// `extension-bridge where`.
enum WhereVerb: Verb {
    static let spec = CommandSpec(
        ["where"], section: "Suite (like `defaults`)", abstract: "print the group container folder",
        discussion: "Prints the group container folder.")

    static func run(_ invocation: Invocation, context: CLIContext) throws(CLIError) -> Int32 {
        try context.print(try invocation.container(context).path)
        return 0
    }
}

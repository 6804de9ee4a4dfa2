/// `extension-bridge man`.
enum ManVerb: Verb {
    static let spec = CommandSpec(
        ["man"], section: "Shell", abstract: "print the man page (roff)",
        discussion: """
            Prints extension-bridge(1) in roff, made from the same declarations as --help.
            Read it with: extension-bridge man | man -l -
            """)

    static func run(_ invocation: Invocation, context: CLIContext) throws(CLIError) -> Int32 {
        try context.print(ManPage.render(invocation.commands))
        return 0
    }
}

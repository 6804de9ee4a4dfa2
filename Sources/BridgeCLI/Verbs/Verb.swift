/// One verb of `extension-bridge`: its declaration and what it does.
protocol Verb {
    static var spec: CommandSpec { get }
    /// Runs the verb (or, for a verb with subcommands, the subcommand `invocation.command` names).
    static func run(_ invocation: Invocation, context: CLIContext) throws(CLIError) -> Int32
}

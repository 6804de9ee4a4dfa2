/// One verb of `extension-bridge`: its declaration and what it does.
protocol Verb {
    static var spec: CommandSpec { get }
    /// Refuses what was typed before anything is read or written: options that exclude each other,
    /// values that break their rule. The default refuses nothing beyond what the spec does.
    static func validate(_ invocation: Invocation) throws(CLIError)
    /// Runs the verb (or, for a verb with subcommands, the subcommand `invocation.command` names).
    static func run(_ invocation: Invocation, context: CLIContext) throws(CLIError) -> Int32
}

extension Verb {
    static func validate(_ invocation: Invocation) throws(CLIError) {}
}

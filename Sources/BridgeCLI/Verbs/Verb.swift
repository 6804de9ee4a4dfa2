import SharedSuite

/// One verb of `extension-bridge`: its declaration and what it does.
protocol Verb {
    static var spec: CommandSpec { get }
    /// Runs the verb (or, for a verb with subcommands, the subcommand `invocation.command` names).
    static func run(_ invocation: Invocation, context: CLIContext) throws(CLIError) -> Int32
}

extension Invocation {
    /// The group container `--suite` (or the default group) names.
    func container(_ context: CLIContext) throws(CLIError) -> GroupContainer {
        try suite { () throws(SuiteError) in
            try GroupContainer(groupID: suiteID ?? GroupContainer.defaultGroupID, environment: context.environment)
        }
    }

    /// The suite commands on that container.
    func suiteCommands(_ context: CLIContext) throws(CLIError) -> SuiteCommands {
        SuiteCommands(context: context, store: Suite(container: try container(context)), json: json)
    }

    /// The last word of the chosen command (`drain` for `queue drain`).
    var subcommand: String { command?.path.last ?? "" }
}

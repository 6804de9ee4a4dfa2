import SharedSuite

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

import BridgeProtocol
import BridgeSystem
import SharedSuite

extension Invocation {
    /// The group container `--suite` (or the default group) names.
    /// - Throws: 64 for a bad group id; 74 for no home or a relative one (the same refusal as
    ///   install's: every verb finds its files from HOME alike); 66 for an
    ///   `EXTENSION_BRIDGE_CONTAINER` whose parent folder does not exist (a typo, never created
    ///   like `mkdir -p`).
    func container(_ context: CLIContext) throws(CLIError) -> GroupContainer {
        let container = try suite { () throws(SuiteError) in
            try GroupContainer(groupID: suiteID ?? GroupContainer.defaultGroupID, environment: context.environment)
        }
        if let override = context.environment[EnvironmentVariable.container] {
            let parent = FileSystem.parentPath(override)
            guard (try? FileSystem.status(parent, followLinks: true))?.isDirectory == true else {
                throw CLIError(
                    .missing,
                    "\(EnvironmentVariable.container.name) is \(override), but its parent folder \(parent) does not exist; "
                        + "create it, or correct the variable (the container itself is made on the first write)")
            }
        } else if !container.path.hasPrefix("/") {
            throw CLIError.relativeHome(context.environment["HOME"] ?? "")
        }
        return container
    }

    /// The suite commands on that container.
    func suiteCommands(_ context: CLIContext) throws(CLIError) -> SuiteCommands {
        SuiteCommands(context: context, store: Suite(container: try container(context)), json: json)
    }

    /// The last word of the chosen command (`drain` for `queue drain`).
    var subcommand: String { command?.path.last ?? "" }
}

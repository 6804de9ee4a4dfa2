import BridgeJSON
import BridgeProtocol
import BridgeSystem
import BrowserSupport
import SharedSuite

extension Invocation {
    /// The group container `--suite` (or the default group) names.
    /// - Throws: 64 for a bad group id; 74 for no home or a relative one (the same refusal as
    ///   install's: every verb finds its files from HOME alike); 66 for an
    ///   `EXTENSION_BRIDGE_CONTAINER` whose parent folder does not exist (a typo, never created
    ///   like `mkdir -p`); 77 for a container that fails `PathTrust` (`requireTrusted(container:)`).
    func container(_ context: CLIContext) throws(CLIError) -> GroupContainer {
        let container = try suite { () throws(SuiteError) in
            try GroupContainer(groupID: suiteID ?? GroupContainer.defaultGroupID, environment: context.environment)
        }
        if let override = context.environment[EnvironmentVariable.container] {
            // Relative, it would name another folder for each process: the host runs where the browser does.
            guard override.hasPrefix("/") else {
                throw CLIError(
                    .usage,
                    "\(EnvironmentVariable.container.name) is \(DisplayText.escaped(override)), a relative path: "
                        + "the host, started by the browser in another folder, would use another container; "
                        + "give an absolute path")
            }
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
        try requireTrusted(container: container.path)
        return container
    }

    /// Refuses (77) a container another user could change: one that belongs to another user, or
    /// with a folder on its way (from `/`, as written and with links resolved) that others may write
    /// without the sticky bit: `PathTrust`, the rule projects and hosts are held to. There another
    /// user could remove or hide the queue and the suite, or plant items and a vocabulary. A
    /// container not made yet is judged by the nearest folder it would be made in.
    func requireTrusted(container path: String) throws(CLIError) {
        guard let refusal = PathTrust.refusal(toCreate: path) else { return }
        // The reason names the mode or the owner; the other is said too.
        let owner = (try? FileSystem.status(refusal.path)).map {
            let mode = String($0.permissions, radix: 8)
            return refusal.reason.contains("(mode ") ? " (owner uid \($0.owner))" : " (mode \(mode))"
        }
        throw CLIError(
            .noPermission,
            "refusing the group container \(path): \(refusal)\(owner ?? ""), so another user could remove or hide "
                + "its queue and suite, or plant items and settings in it; "
                + (refusal.fix.map { "run \($0) (or chown it to yourself), or " } ?? "")
                + "keep the container in a folder of your own (\(EnvironmentVariable.container.name) names it)")
    }

    /// The suite commands on that container.
    func suiteCommands(_ context: CLIContext) throws(CLIError) -> SuiteCommands {
        SuiteCommands(context: context, store: Suite(container: try container(context)), json: json)
    }

    /// The last word of the chosen command (`drain` for `queue drain`).
    var subcommand: String { command?.path.last ?? "" }
}

import BridgeProtocol
import BridgeSystem

/// Which groups exist, so the CLI can say so when a `--suite` names one that does not (a typo
/// that `write` would otherwise turn into a new, unread group without a word).
extension GroupContainer {
    /// Whether the container folder exists (a group nothing has written to has none).
    public var exists: Bool { (try? FileSystem.status(path, followLinks: true))?.isDirectory == true }

    /// The folder every group's container is in, nil when `EXTENSION_BRIDGE_CONTAINER` names
    /// one container (no other group is beside it) or there is no home.
    public static func root(environment: Environment) -> String? {
        guard environment[EnvironmentVariable.container] == nil,
            let home = Platform.groupContainersHome(environment: environment)
        else { return nil }
        return Platform.groupContainersRoot(home: home, xdgDataHome: environment["XDG_DATA_HOME"])
    }

    /// The ids of the groups in `root`, sorted: folders named like a group id that hold a suite
    /// or a queue (other programs' folders in `~/.local/share` hold neither).
    public static func existingGroups(inRoot root: String) -> [String] {
        let names = (try? FileSystem.listDirectory(root)) ?? []
        return names.filter { name in
            HostIdentity.isGroupID(name)
                && ["suite.json", "queue"].contains { (try? FileSystem.status(root + "/" + name + "/" + $0)) != nil }
        }.sorted()
    }
}

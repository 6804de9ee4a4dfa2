import BridgeProtocol
import BridgeSystem

/// The folder of one app group: the suite file, its lock, the shared files
/// and the pending queue. The counterpart of an App Group container.
///
/// Location: `EXTENSION_BRIDGE_CONTAINER` if set; otherwise on Linux
/// `$XDG_DATA_HOME/<group>` (or `~/.local/share/<group>`) with `HOME` from the
/// environment (static executables must not call NSS); on macOS
/// `~/Library/Group Containers/<group>` under the account's real home from the
/// password database, never a sandbox's `HOME` (`Platform.groupContainersHome`).
public struct GroupContainer: Equatable, Sendable {
    /// The group used when none is named.
    public static let defaultGroupID = "group.org.extensionbridge.shared"

    /// The group id, such as `group.org.extensionbridge.shared`.
    public let groupID: String
    /// The container folder.
    public let path: String

    /// A container at an explicit folder (tests, `EXTENSION_BRIDGE_CONTAINER`).
    public init(path: String, groupID: String = GroupContainer.defaultGroupID) {
        self.path = path
        self.groupID = groupID
        // Built once: a long-lived host stats the suite on every request.
        suitePath = path + "/suite.json"
        lockPath = path + "/" + GroupContainer.lockFileName
        filesPath = path + "/files"
        queuePath = path + "/queue"
        incomingPath = path + "/queue/.incoming"
    }

    /// Resolves the container of `groupID` from the environment.
    /// - Throws: `.invalidGroupID` for ids that are not a plain name, `.noHome`
    ///   when there is no home (Linux: `HOME` unset; macOS: no password entry) and no override.
    public init(groupID: String = GroupContainer.defaultGroupID, environment: Environment) throws(SuiteError) {
        try GroupContainer.validate(groupID: groupID)
        if let override = environment[EnvironmentVariable.container] {
            self.init(path: override, groupID: groupID)
            return
        }
        guard let home = Platform.groupContainersHome(environment: environment) else { throw .noHome }
        let root = Platform.groupContainersRoot(home: home, xdgDataHome: environment["XDG_DATA_HOME"])
        self.init(path: root + "/" + groupID, groupID: groupID)
    }

    /// Resolves the container of `groupID` from this process's environment: what an app calls
    /// (`try GroupContainer(groupID: "group.com.example.app")`), with nothing but SharedSuite imported.
    /// - Throws: as ``init(groupID:environment:)``.
    public init(groupID: String = GroupContainer.defaultGroupID) throws(SuiteError) {
        try self.init(groupID: groupID, environment: .current())
    }

    /// Refuses group ids that are not a plain folder name.
    public static func validate(groupID: String) throws(SuiteError) {
        // One rule for every reader (HostIdentity.isGroupID): no leading '-', which secret-tool read as an option.
        if !HostIdentity.isGroupID(groupID) { throw .invalidGroupID(groupID) }
    }

    /// `suite.json`: the key-value suite.
    public let suitePath: String
    /// `.suite.lock`: writers hold an exclusive `flock` on it.
    public let lockPath: String
    static let lockFileName = ".suite.lock"
    /// `files/`: named shared files.
    public let filesPath: String
    /// `queue/`: one JSON file per pending item.
    public let queuePath: String
    /// `queue/.incoming/`: items being written, renamed into `queue/` when complete.
    public let incomingPath: String

    /// Creates the container folder (mode 0700) when it is missing.
    public func create() throws(SuiteError) {
        try SuiteError.wrap { () throws(SystemError) in try FileSystem.makeDirectories(path, permissions: 0o700) }
    }

    /// The container folder, open: its own path may be a link (where the user
    /// keeps it is the user's choice); nothing in it is used through one.
    /// Nil when it does not exist and `create` is false.
    public func directory(create: Bool = false) throws(SuiteError) -> Directory? {
        if create { try self.create() }
        do {
            return try Directory.open(path, noFollow: false)
        } catch {
            if error.isNotFound { return nil }
            throw .io(error)
        }
    }

    /// The sub-folder `name` of the container (`queue`, `files`), open and
    /// never a link (`ELOOP`: refused, reported). Nil when missing and
    /// `create` is false.
    func folder(_ name: String, create: Bool = false) throws(SuiteError) -> Directory? {
        guard let root = try directory(create: create) else { return nil }
        do {
            return try root.subdirectory(name, create: create)
        } catch {
            if error.isNotFound { return nil }
            throw .io(error)
        }
    }
}

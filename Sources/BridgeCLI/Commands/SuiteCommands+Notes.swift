import BridgeSystem
import BrowserSupport
import SharedSuite

/// The notes `write` and `import` print on standard error after a write that succeeded: a key
/// the host reads stored with a type it will not read as meant (the suite format allows it, so it
/// is written), and a value pages see written while the extension is off.
extension SuiteCommands {
    /// How a printed command runs this program: Doctor's rule, so a note's command runs as printed.
    static func tool(_ context: CLIContext) -> String {
        Doctor.toolCommand(executable: Platform.executablePath(), searchPath: context.environment["PATH"])
    }

    var tool: String { SuiteCommands.tool(context) }

    /// ` --suite ID` for a group other than the default one, so the printed command acts on this group.
    var suiteOption: String {
        store.container.groupID == GroupContainer.defaultGroupID ? "" : " --suite " + store.container.groupID
    }

    /// The other groups that exist beside this one, for a note ("" when none can be listed).
    var otherGroups: String { SuiteCommands.groups(besides: store.container, context) }

    /// The groups that exist beside `container`'s, for a note ("" when none can be listed).
    static func groups(besides container: GroupContainer, _ context: CLIContext) -> String {
        guard let root = GroupContainer.root(environment: context.environment) else { return "" }
        let others = GroupContainer.existingGroups(inRoot: root).filter { $0 != container.groupID }
        return others.isEmpty ? "" : others.joined(separator: ", ")
    }

    /// Why `container`'s group reads as empty when it does not exist, naming the groups that do
    /// (a mistyped `--suite`); nil when it exists.
    static func missingGroup(_ container: GroupContainer, _ context: CLIContext) -> String? {
        guard !container.exists else { return nil }
        let others = groups(besides: container, context)
        return "the group \(container.groupID) does not exist (no \(container.path)): nothing was written "
            + "to it yet" + (others.isEmpty ? "" : "; groups that exist: \(others) (check --suite)")
    }

    /// On stderr, for verbs that list what a group holds (queue, files): an empty answer from a
    /// group that does not exist says why.
    static func noteIfMissing(_ container: GroupContainer, _ context: CLIContext) {
        if let missing = missingGroup(container, context) { context.writeErr("extension-bridge: note: " + missing) }
    }

    /// After a write that made this group's container (`existed` false), names the groups that do
    /// exist, when there are any: a mistyped `--suite` makes a group nothing reads.
    func noteIfCreated(existed: Bool) {
        guard !existed else { return }
        let others = otherGroups
        guard !others.isEmpty else { return }
        context.writeErr(
            "extension-bridge: note: created the new group \(store.container.groupID) (\(store.container.path)); "
                + "groups that exist: \(others) (check --suite)")
    }

    /// A group whose container does not exist: reading KEY is refused (66), reading the whole
    /// suite gives its defaults (`{}`, as a new suite reads, so an app may read before its first
    /// write) with a note; both name the groups that do exist.
    func requireExistingGroup(reading key: String?) throws(CLIError) {
        guard let missing = SuiteCommands.missingGroup(store.container, context) else { return }
        guard let key else { return context.writeErr("extension-bridge: note: " + missing) }
        throw CLIError(.missing, "the key '\(key)' does not exist: " + missing)
    }

    /// Warns, one line per key, about the known keys among `written` the host will not read as meant.
    func warnAboutKnownKeys(_ written: [String: SuiteValue]) {
        for key in written.keys.sorted() {
            guard let value = written[key], let mismatch = SuiteKeys.mismatch(key: key, value: value) else { continue }
            let way =
                mismatch.writeArguments.map { "write it as: \(tool) write\(suiteOption) \($0)" }
                ?? "no one command keeps what is there (write replaces a whole value): rewrite it with "
                + "\(tool) write\(suiteOption) \(key) -dict WORD REPLACEMENT …"
            context.writeErr("extension-bridge: warning: \(mismatch.description); \(way)")
        }
    }

    /// When `written` holds a key pages see and the extension is off in this group, says how to turn it on.
    func noteIfOff(after written: some Sequence<String>) {
        guard written.contains(where: SuiteKeys.pageKeys.contains),
            let snapshot = try? store.snapshot(), !SuiteKeys.isEnabled(snapshot)
        else { return }
        context.writeErr(
            "extension-bridge: note: the extension is off in \(store.container.groupID) "
                + "(\(SuiteKeys.enabled) is not true), so pages do not change; turn it on with: "
                + "\(tool) enable\(suiteOption)")
    }
}

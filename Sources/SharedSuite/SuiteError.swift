import BridgeSystem

/// Errors of the shared suite, each saying what is wrong and what to do.
public enum SuiteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The suite file exists but cannot be used as it is.
    case corrupt(path: String, reason: String)
    /// The suite file was written by a newer ExtensionBridge.
    case newerFormat(path: String, version: Int, supported: Int)
    /// A system call failed.
    case io(SystemError)
    /// Another process held a lock (the suite's, or the queue's hand-over lock) for too long.
    case lockTimeout(path: String, seconds: Double)
    /// The group id cannot name a folder.
    case invalidGroupID(String)
    /// Neither `HOME` nor `EXTENSION_BRIDGE_CONTAINER` is set.
    case noHome
    /// A shared-file name that could escape or hide in the container.
    case invalidName(String, reason: String)
    /// No such key, file or item.
    case notFound(String)
    /// One saved item is over the item quota.
    case contentTooLarge(size: Int, limit: Int)
    /// The queue is over its item or byte quota.
    case queueFull(items: Int, bytes: Int, maxItems: Int, maxBytes: Int)
    /// A value that the suite cannot store.
    case invalidValue(String)
    /// A queue item that a drain or watch is handing over at this moment
    /// (its claim is held): it may reach the app, so it cannot be withdrawn.
    case itemBeingHandedOver(id: String)

    public var description: String {
        switch self {
        case .corrupt(let path, let reason):
            return "the suite file \(path) is unreadable: \(reason). Nothing was changed; "
                + "run `extension-bridge repair` to move it aside, keeping every key that still reads"
        case .newerFormat(let path, let version, let supported):
            return "the suite file \(path) has formatVersion \(version), but this ExtensionBridge reads "
                + "up to \(supported); upgrade ExtensionBridge (the file was left as it is)"
        case .io(let error):
            return error.description
        case .lockTimeout(let path, let seconds):
            return "another process held the lock \(path) for more than \(seconds) s; "
                + "try again, and look for a stuck extension-bridge process"
        case .invalidGroupID(let id):
            return "invalid group id '\(id)': use letters, digits, '.', '-' and '_', not starting with '.' or '-'"
        case .noHome:
            return Platform.isMacOS
                ? "the password database has no home folder for this user, so the group container cannot be found;"
                    + " set EXTENSION_BRIDGE_CONTAINER"
                : "HOME is not set, so the group container cannot be found; set HOME or EXTENSION_BRIDGE_CONTAINER"
        case .invalidName(let name, let reason):
            return "invalid shared file name '\(name)': \(reason)"
        case .notFound(let what):
            return "\(what) not found"
        case .contentTooLarge(let size, let limit):
            return "the item is \(size) bytes, over the limit of \(limit) bytes per item"
        case .queueFull(let items, let bytes, let maxItems, let maxBytes):
            return "the queue is full (\(items) items, \(bytes) bytes; limits \(maxItems) items, \(maxBytes) bytes); "
                + "run `extension-bridge queue drain` to empty it"
        case .invalidValue(let reason):
            return reason
        case .itemBeingHandedOver(let id):
            return "item \(id) is being handed over to the app right now (queue drain or watch); "
                + "it stays only if the app does not take it"
        }
    }
}

extension SuiteError {
    /// Wraps a system error, so call sites can `catch` and rethrow as one type.
    static func wrap<T>(_ body: () throws(SystemError) -> T) throws(SuiteError) -> T {
        do {
            return try body()
        } catch {
            throw .io(error)
        }
    }
}

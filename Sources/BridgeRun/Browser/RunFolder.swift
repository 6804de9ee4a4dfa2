import BridgeSystem

/// The private folder of one `run` (mode 0700, a new name each time: a second `run`
/// gets its own): the browser's HOME and profile, the host manifest, the copy of the
/// host the browser starts, the sockets, and the TMPDIR of `swift build --show-bin-path`.
/// Removed at exit.
///
/// ```
/// extension-bridge-run-XXXXXX/
///   home/       HOME and the XDG folders of the browser (Firefox's .mozilla/native-messaging-hosts/)
///   tmp/        TMPDIR of `swift build --show-bin-path` (it leaves empty folders in its TMPDIR)
///   profile/    Chromium's --user-data-dir (its NativeMessagingHosts/), Firefox's --profile
///   host/       the host as built; a rebuild replaces it by rename
///   trace.sock  where the hosts send their records
///   devtools.sock  Firefox's debugging server
/// ```
public struct RunFolder: Equatable, Sendable {
    public let path: String

    public var home: String { path + "/home" }
    public var profile: String { path + "/profile" }
    public var hostFolder: String { path + "/host" }
    public var temporary: String { path + "/tmp" }
    public var traceSocket: String { path + "/trace.sock" }
    public var devToolsSocket: String { path + "/devtools.sock" }

    init(path: String) { self.path = path }

    /// The parent for a new folder: `TMPDIR` when it is short enough for the sockets' paths
    /// (`LocalSocket.maximumPathBytes`), else `/tmp`; `/tmp` when it is unset or empty.
    /// - Throws: `RunError.temporaryDirectory` when `TMPDIR` is set and is not an absolute path
    ///   to a folder: the host's build would fail on it too, with no word of TMPDIR.
    public static func parent(temporaryDirectory: String?) throws(RunError) -> String {
        guard let folder = temporaryDirectory, !folder.isEmpty else { return "/tmp" }
        guard folder.hasPrefix("/") else { throw .temporaryDirectory(folder, problem: "is not an absolute path") }
        let status: FileStatus?
        do {
            status = try FileSystem.status(folder, followLinks: true)
        } catch {
            throw .temporaryDirectory(folder, problem: "cannot be read (\(error))")
        }
        guard let status else { throw .temporaryDirectory(folder, problem: "does not exist") }
        guard status.isDirectory else { throw .temporaryDirectory(folder, problem: "is not a folder") }
        // The longest path inside: the folder's name (27 bytes) and "/devtools.sock".
        let room = LocalSocket.maximumPathBytes - 28 - 14
        guard folder.utf8.count <= room else { return "/tmp" }
        return folder.hasSuffix("/") && folder.count > 1 ? String(folder.dropLast()) : folder
    }

    /// Makes a new folder and its `home`, `profile`, `host` and `tmp` folders.
    /// - Throws: `SystemError` when the parent is not writable.
    public static func create(in parent: String) throws(SystemError) -> RunFolder {
        let folder = RunFolder(path: try Platform.makePrivateFolder(in: parent, prefix: "extension-bridge-run-"))
        do {
            for sub in [folder.home, folder.profile, folder.hostFolder, folder.temporary] {
                try FileSystem.makeDirectory(sub)
            }
        } catch {
            try? FileSystem.removeTree(folder.path)
            throw error
        }
        return folder
    }

    /// Removes the folder and everything in it; a browser process that was still writing
    /// as it died may add a file between two passes, so it tries a few times.
    /// - Returns: true when it is gone.
    @discardableResult
    public func remove() -> Bool {
        for attempt in 0..<5 {
            if attempt > 0 { Platform.sleep(milliseconds: 100) }
            try? FileSystem.removeTree(path)
            if !Platform.exists(path) { return true }
        }
        return false
    }
}

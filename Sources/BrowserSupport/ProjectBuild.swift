import BridgeSystem

/// A bridge project's own builds of its host (`.build/release`, `.build/debug`), and what the
/// newest says it can do.
public enum ProjectBuild {
    /// The newer of a project's `.build/release` and `.build/debug` hosts, and the other when both exist.
    public static func newest(of bridge: BridgeDescription, in project: String) -> (newest: String, older: String?)? {
        let built: [(path: String, modified: Int64)] = ["release", "debug"].compactMap { kind in
            let path = project + "/.build/\(kind)/" + bridge.hostProduct
            guard FileSystem.isExecutable(path), let status = try? FileSystem.status(path, followLinks: true) else {
                return nil
            }
            return (path, status.identity.modified)
        }
        guard let newest = built.max(by: { $0.modified < $1.modified }) else { return nil }
        return (newest.path, built.first { $0.path != newest.path }?.path)
    }

    /// What the newest build says of its actions.
    public enum Actions: Equatable, Sendable {
        /// Its host's `--actions`, sorted.
        case listed([String])
        /// No build, or one that cannot say (built before `--actions` existed).
        case unknown
        /// The build was not run: `PathTrust` refused it (a folder others can write, say).
        case notRun(program: String, refusal: PathTrust.Refusal)
    }

    /// The actions of the newest build of the project whose `bridge.json` is at `configPath`
    /// (its host run with `--actions`), run only when it passes `PathTrust`: anyone who can
    /// write the project could otherwise have `doctor` run their program.
    /// - Parameters:
    ///   - configPath: the absolute path of the project's `bridge.json`.
    ///   - userID: the user the build must belong to (or root).
    public static func actions(configPath: String, userID: UInt32 = Platform.effectiveUserID) -> Actions {
        guard let bridge = try? BridgeDescription.load(configPath) else { return .unknown }
        let project = FileSystem.parentPath(configPath)
        guard let program = newest(of: bridge, in: project)?.newest else { return .unknown }
        if let refusal = PathTrust.refusal(program, userID: userID) {
            return .notRun(program: program, refusal: refusal)
        }
        guard
            let result = try? Subprocess.run(
                program, arguments: ["--actions"], environment: ["PATH": "/usr/bin:/bin"], workingDirectory: project,
                input: [], timeoutMilliseconds: 5000),
            result.status == 0, !result.timedOut
        else { return .unknown }
        let names = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
        return names.contains("hello") ? .listed(names.sorted()) : .unknown
    }
}

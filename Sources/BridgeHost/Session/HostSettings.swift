import BridgeProtocol
import BridgeSystem
import SharedSuite

/// What a host launched by the browser serves, and for whom: the group, the
/// caller allowlist and the log level.
///
/// Sources, in order:
/// 1. `EXTENSION_BRIDGE_ALLOWED_CALLERS` set: the environment alone decides
///    (tests, benchmarks, hand runs); no file is read.
/// 2. The configuration file beside the host binary
///    (`HostConfiguration.fileName(forExecutable:)`, written by `install`).
/// 3. The legacy allowlist file beside it (`extension-bridge-host.allowed`),
///    so installs made before the configuration file keep working.
/// `EXTENSION_BRIDGE_GROUP` and `EXTENSION_BRIDGE_LOG` override the file's
/// group and log level.
public struct HostSettings: Equatable, Sendable {
    public var groupID: String
    public var logLevel: LogLevel
    public var policy: CallerPolicy
    /// Problems with the configuration, to log once the logger exists.
    public var warnings: [String] = []

    public init(groupID: String, logLevel: LogLevel, policy: CallerPolicy, warnings: [String] = []) {
        self.groupID = groupID
        self.logLevel = logLevel
        self.policy = policy
        self.warnings = warnings
    }

    /// Reads the settings.
    /// - Parameters:
    ///   - environment: the process environment (or a test's).
    ///   - defaultGroupID: the group when neither file nor environment names one.
    ///   - executablePath: looked up only when the environment has no list.
    ///   - readFile: reads a small file; nil when it is missing or unreadable.
    ///   - ownership: the owner and permission bits of a file (links followed); nil when unknown.
    ///   - userID: the user the configuration must belong to (or root): the one running the host.
    public static func load(
        environment: Environment, defaultGroupID: String, executablePath: @autoclosure () -> String?,
        readFile: (String) -> [UInt8]? = { try? FileSystem.readFile($0, noFollow: false, limit: 1 << 20) },
        ownership: (String) -> (owner: UInt32, permissions: Int)? = { path in
            (try? FileSystem.status(path, followLinks: true)).flatMap { $0.map { ($0.owner, $0.permissions) } }
        },
        userID: UInt32 = Platform.effectiveUserID
    ) -> HostSettings {
        var configuration = HostConfiguration()
        var source = "no allowlist"
        var warnings: [String] = []
        if let list = environment[EnvironmentVariable.allowedCallers] {
            configuration.allowedCallers = AllowList.parse(list)
            source = EnvironmentVariable.allowedCallers.name
        } else if let executable = executablePath() {
            let folder = FileSystem.parentPath(executable)
            let configPath =
                folder + "/" + HostConfiguration.fileName(forExecutable: FileSystem.lastComponent(executable))
            if let bytes = readFile(configPath) {
                if let problem = untrusted(ownership(configPath), userID: userID) {
                    // Whoever can write it chooses which extensions are served and which group they reach.
                    warnings.append(
                        "\(configPath) \(problem); serving nobody (extension-bridge doctor says how to fix it)")
                    source = "untrusted \(configPath)"
                    return HostSettings(
                        groupID: defaultGroupID, logLevel: .warn, policy: CallerPolicy(allowed: [], source: source),
                        warnings: warnings)
                }
                do throws(HostConfiguration.ParseError) {
                    let (parsed, unknown) = try HostConfiguration.parse(String(decoding: bytes, as: UTF8.self))
                    configuration = parsed
                    source = configPath
                    if !unknown.isEmpty { warnings.append("\(configPath): unknown keys \(unknown) ignored") }
                } catch {
                    // A file this host cannot read serves nobody: refusing is safe, guessing is not.
                    warnings.append("\(configPath): \(error); serving nobody")
                    source = "unreadable \(configPath)"
                }
            } else {
                let legacyPath = folder + "/" + HostConfiguration.legacyAllowlistFileName
                if let bytes = readFile(legacyPath), untrusted(ownership(legacyPath), userID: userID) == nil {
                    configuration.allowedCallers = AllowList.parse(String(decoding: bytes, as: UTF8.self))
                    source = legacyPath
                } else {
                    source = "missing \(configPath)"
                }
            }
        }
        let levelName = environment[EnvironmentVariable.log] ?? configuration.logLevel
        let level = levelName.flatMap(LogLevel.init(name:)) ?? .warn
        if let levelName, LogLevel(name: levelName) == nil {
            let origin = environment[EnvironmentVariable.log] != nil ? EnvironmentVariable.log.name : source
            warnings.append(
                "\(origin): unknown log level '\(HostConfiguration.UnsafeValue.shown(levelName))' ignored; "
                    + "logging at warn (levels: \(HostConfiguration.logLevels.joined(separator: ", ")))")
        }
        return HostSettings(
            groupID: environment[EnvironmentVariable.group] ?? configuration.group ?? defaultGroupID,
            logLevel: level, policy: CallerPolicy(allowed: configuration.allowedCallers, source: source),
            warnings: warnings)
    }

    /// `HostConfiguration.trustProblem` of a file, or "cannot be examined" when its owner is unknown.
    static func untrusted(_ ownership: (owner: UInt32, permissions: Int)?, userID: UInt32) -> String? {
        guard let ownership else { return "cannot be examined" }
        return HostConfiguration.trustProblem(
            owner: ownership.owner, permissions: ownership.permissions, userID: userID)
    }
}

import BridgeSystem
import BrowserSupport

/// Which host `install` registers and `pack --deb` packages: the one beside this binary or
/// `--host-path`, or a generated bridge's build.
extension BrowserInputs {
    /// The host the manifests point at: `--host-path`, else the first of `ToolLayout.hostCandidates`
    /// that is executable (said on stderr when it is not the one beside this binary).
    func hostPath() throws(CLIError) -> String {
        let destination = args[InstallVerbOptions.destination] ?? ""
        if var path = args[InstallVerbOptions.hostPath] {
            if !path.hasPrefix("/"), let cwd = currentDirectory() { path = cwd + "/" + path }
            guard FileSystem.isExecutable(destination + path) else {
                throw CLIError(.missing, InstallError.hostMissing(path: destination + path).description)
            }
            return path
        }
        let candidates = Platform.executablePath().map(ToolLayout.hostCandidates) ?? []
        guard let path = ToolLayout.installedHost(executable: Platform.executablePath(), root: destination) else {
            throw CLIError(
                .missing,
                "no executable host at \(candidates.map { destination + $0 }.joined(separator: " or ")); build and "
                    + "install it with scripts/install.sh, or pass --host-path")
        }
        try requireTrusted(destination + path, found: "the host beside this binary")
        if path != candidates.first && !args.json {
            context.writeErr(
                "using the host \(path) (the package's layout: ../lib/extension-bridge beside this binary)")
        }
        return path
    }

    /// Refuses (77) a host found without `--host-path` that fails `PathTrust`: the browser would run
    /// with the user's rights a program others could have put there (`--host-path` is the person's choice).
    func requireTrusted(_ path: String, found what: String) throws(CLIError) {
        guard let refusal = PathTrust.refusal(path) else { return }
        throw CLIError(
            .noPermission,
            "refusing \(what) \(path): \(refusal), so another user could have put their program there, and the "
                + "browser would run it as you; " + (refusal.fix.map { "run \($0), or " } ?? "")
                + "pass --host-path to choose the host yourself")
    }

    /// The host a bridge's project built: `--host-path`, else the newer of `.build/release` and
    /// `.build/debug` (said on stderr when both exist, so an old release build never wins silently).
    func builtBridgeHost(_ bridge: BridgeDescription, configPath: String) throws(CLIError) -> String {
        let cwd = currentDirectory() ?? "."
        if let given = args[InstallVerbOptions.hostPath] {
            let path = given.hasPrefix("/") ? given : cwd + "/" + given
            guard FileSystem.isExecutable(path) else {
                throw CLIError(.missing, "no executable host at \(path) (--host-path)")
            }
            return path
        }
        let config = configPath.hasPrefix("/") ? configPath : cwd + "/" + configPath
        let project = FileSystem.parentPath(config)
        guard let (newest, older) = ProjectBuild.newest(of: bridge, in: project) else {
            // The project's own script builds the host (static, as a package needs it) and goes on.
            let script = args.has(PackVerbOptions.deb) ? "package-deb.sh" : "install.sh"
            let fix =
                ToolLayout.projectScript(script, besides: config).map { "run `\($0)`, which builds it first" }
                ?? "build it (swift build -c release -Xswiftc -static-executable --product \(bridge.hostProduct))"
            throw CLIError(
                .missing,
                "no built host \(bridge.hostProduct) in \(project)/.build/release or .build/debug: \(fix), or pass "
                    + "--host-path")
        }
        try requireTrusted(newest, found: "the project's newest host build")
        if let older, !args.json { context.writeErr("using the newer host build \(newest) (\(older) is older)") }
        return newest
    }
}

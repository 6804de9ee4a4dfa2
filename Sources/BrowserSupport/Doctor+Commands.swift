import BridgeProtocol
import BridgeSystem

extension Doctor {
    /// The command a fix line gives to install this bridge for `browser`: the host, and with `crx`
    /// the extension too (`--crx`; only Chromium-family browsers that read External Extensions take it).
    /// - Parameters:
    ///   - browser: the browser the command names with `--browser`; nil for every detected browser.
    ///   - userDataDirectory: the `--user-data-dir` doctor was given, repeated in the command.
    ///   - crx: whether the command installs the extension as well as the host.
    public func command(installing browser: Browser?, userDataDirectory: String? = nil, crx: Bool = false)
        -> String
    {
        let options = (crx ? " --crx" : "") + (browser.map { " --browser \($0.id)" } ?? "")
        return (installCommand.map { $0 + options } ?? tool + " install" + options + bridgeArguments)
            + (userDataDirectory.map { " --user-data-dir " + $0.shellQuoted } ?? "")
    }

    /// How a fix line runs this program (`executable`, absolute) from a shell whose PATH is
    /// `searchPath`: `extension-bridge` when that name there is this very file; else its path,
    /// quoted, so that a fix pasted as printed runs (right after `scripts/install.sh`,
    /// `~/.local/bin` is often not on PATH yet; another `extension-bridge` may be first on it).
    public static func toolCommand(executable: String?, searchPath: String?) -> String {
        let name = "extension-bridge"
        guard let executable else { return name }
        func file(_ path: String) -> [UInt64]? {
            (try? FileSystem.status(path, followLinks: true)).map { [$0.identity.device, $0.identity.inode] }
        }
        if let found = Platform.executable(named: name, searchPath: searchPath), let this = file(executable),
            file(found) == this
        {
            return name
        }
        return executable.shellQuoted
    }

    /// The fix for a host that is missing or does not answer as one: the package manager's for a
    /// host the Debian package owns; else `installCommand`, which points the manifest at the host
    /// beside this CLI (or a bridge's own build), or says what is missing.
    func hostFix(_ hostPath: String, installCommand: String) -> String {
        PackagedFiles(root: systemRoot).owns(systemRoot + hostPath)
            ? "sudo apt install --reinstall \(PackagedFiles.packageName)   (then: \(installCommand))" : installCommand
    }

    /// The row doctor prints when no browser is found: an error (nothing can reach the host), whose fix
    /// is the one command that installs the host and the extension once a browser is there.
    public func noBrowserCheck() -> DoctorCheck {
        DoctorCheck(
            browser: "-", scope: "-", path: "", status: .error,
            detail: "no browser found (no executable on PATH or in the vendors' folders, no profile folder, "
                + "no Flatpak), so no browser can start the host",
            fix: "install a browser, then run: " + command(installing: nil, crx: true))
    }

    /// With no browser to read a manifest for, the host `install` would register (`hostPath`), started
    /// as Chromium would start it, when `install` has configured it (its `.conf` beside it); without
    /// that file the host serves no extension, which the row says instead of starting it.
    public func hostCheck(hostPath: String) -> DoctorCheck {
        let check = DoctorCheck(
            browser: "-", scope: "host", path: hostPath, status: .error, detail: "",
            fix: "install a browser, then run: " + command(installing: nil, crx: true))
        let configuration =
            FileSystem.parentPath(hostPath) + "/"
            + HostConfiguration.fileName(forExecutable: FileSystem.lastComponent(hostPath))
        guard (try? FileSystem.status(configuration, followLinks: true)) != nil else {
            var notRegistered = check
            // The no-browser row already gives the one command that registers it.
            notRegistered.fix = nil
            notRegistered.status = .warning
            notRegistered.detail =
                "not registered with any browser yet (no \(FileSystem.lastComponent(configuration)) beside it, "
                + "which install writes), so not started"
            return notRegistered
        }
        guard let caller = identity.chromiumOrigins.first else { return check }
        return roundTrip(check, hostPath: hostPath, manifestPath: "", caller: caller, family: .chromium)
    }

    /// The sentence that closes doctor's table: "Everything checks out." only when no row is a
    /// warning or an error; a warning (something doctor cannot see, or that works only in part) is
    /// not a failure (exit 0) but is never called fine.
    public static func summary(_ checks: [DoctorCheck]) -> String {
        let errors = checks.filter { $0.status == .error }.count
        let warnings = checks.filter { $0.status == .warning }.count
        if errors > 0 {
            return "\(errors) error(s), \(warnings) warning(s): the bridge is broken where an error says so."
        }
        if warnings > 0 {
            return "No errors, \(warnings) warning(s): something does not work, or doctor could not confirm it "
                + "(see each warning)."
        }
        return "Everything checks out."
    }
}

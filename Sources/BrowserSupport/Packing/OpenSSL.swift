import BridgeSystem

/// The system's `openssl` (Debian's `openssl` package), run through
/// `Subprocess` with a fixed `PATH` and no terminal: the one tool that makes,
/// reads and uses extension keys here.
struct OpenSSL {
    /// Its absolute path.
    let path: String

    /// Finds `openssl` in `searchPath` (`PATH`), then `/usr/bin`.
    /// - Parameter purpose: what it is needed for, for the message when it is missing.
    static func locate(searchPath: String?, purpose: String) throws(PackError) -> OpenSSL {
        let folders = (searchPath ?? "/usr/bin:/bin").split(separator: ":").map(String.init) + ["/usr/bin"]
        guard let path = folders.map({ $0 + "/openssl" }).first(where: FileSystem.isExecutable) else {
            throw .opensslMissing(purpose: purpose)
        }
        return OpenSSL(path: path)
    }

    /// Runs `openssl arguments…` with `input` on stdin and returns its stdout.
    /// - Throws: `PackError.opensslFailed` with openssl's first words when it
    ///   fails, prints nothing or runs for more than a minute.
    func run(_ arguments: [String], input: [UInt8]) throws(PackError) -> [UInt8] {
        let result: Subprocess.Result
        do {
            result = try Subprocess.run(
                path, arguments: arguments, environment: ["PATH": "/usr/bin:/bin"], workingDirectory: nil,
                input: input, timeoutMilliseconds: 60_000)
        } catch {
            throw .opensslFailed("cannot run \(path): \(error)")
        }
        guard result.status == 0, !result.timedOut, !result.stdout.isEmpty else {
            let message = String(decoding: result.stderr.prefix(300), as: UTF8.self)
            throw .opensslFailed(
                "\(path) \(arguments.first ?? "") failed (exit \(result.status)\(result.timedOut ? ", timed out" : "")): "
                    + message)
        }
        return result.stdout
    }
}

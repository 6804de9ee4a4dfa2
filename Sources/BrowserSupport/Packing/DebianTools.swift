import BridgeSystem

/// The Debian tools a package is built with, found on `PATH` or in `/usr/bin`.
struct DebianTools {
    let dpkgDeb: String
    let strip: String
    let md5sum: String
    /// Where the package databases are asked: nil when not installed (then nothing is known).
    let dpkgQuery: String?
    let aptCache: String?

    init(searchPath: String?) throws(PackError) {
        let folders = (searchPath ?? "/usr/bin:/bin").split(separator: ":").map(String.init) + ["/usr/bin", "/bin"]
        dpkgQuery = folders.map { $0 + "/dpkg-query" }.first(where: FileSystem.isExecutable)
        aptCache = folders.map { $0 + "/apt-cache" }.first(where: FileSystem.isExecutable)
        func find(_ name: String, _ package: String) throws(PackError) -> String {
            guard let path = folders.map({ $0 + "/" + name }).first(where: FileSystem.isExecutable) else {
                throw .toolMissing(name: name, package: package)
            }
            return path
        }
        dpkgDeb = try find("dpkg-deb", "dpkg")
        strip = try find("strip", "binutils")
        md5sum = try find("md5sum", "coreutils")
    }

    /// The maintainer of the package called `name` that this system knows (installed, per
    /// `dpkg-query`, else available from its archives, per `apt-cache`); nil when it knows none.
    func maintainer(ofKnownPackage name: String) -> String? {
        if let dpkgQuery, let out = try? run(dpkgQuery, ["-W", "-f=${Maintainer}", name], in: "/"),
            case let text = String(decoding: out, as: UTF8.self), !text.isEmpty
        {
            return text
        }
        guard let aptCache, let out = try? run(aptCache, ["show", "--no-all-versions", name], in: "/") else {
            return nil
        }
        let line = String(decoding: out, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("Maintainer: ") }
        return line.map { String($0.dropFirst("Maintainer: ".count)) }
    }

    /// Runs `tool arguments…` in `folder`; its stdout, or `PackError.toolFailed` with its stderr.
    func run(_ tool: String, _ arguments: [String], in folder: String, environment: [String: String] = [:])
        throws(PackError) -> [UInt8]
    {
        var env = ["PATH": "/usr/bin:/bin", "LC_ALL": "C"]
        env.merge(environment) { $1 }
        let result: Subprocess.Result
        do {
            result = try Subprocess.run(
                tool, arguments: arguments, environment: env, workingDirectory: folder, input: [],
                timeoutMilliseconds: 300_000)
        } catch {
            throw .toolFailed("cannot run \(tool): \(error)")
        }
        guard result.status == 0, !result.timedOut else {
            throw .toolFailed(
                "\(tool) failed (exit \(result.status)): " + String(decoding: result.stderr.prefix(600), as: UTF8.self))
        }
        return result.stdout
    }
}

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
        // Both tools take a name with `.`, `+` or `*` as a pattern (`chromium.` finds chromium): only a
        // record whose Package is exactly `name` counts.
        if let dpkgQuery, let out = try? run(dpkgQuery, ["-W", "-f=${Package}\t${Maintainer}\n", name], in: "/") {
            for line in String(decoding: out, as: UTF8.self).split(separator: "\n") {
                let fields = line.split(separator: "\t", maxSplits: 1)
                if fields.count == 2, fields[0] == name, !fields[1].isEmpty { return String(fields[1]) }
            }
        }
        guard let aptCache, let out = try? run(aptCache, ["show", "--no-all-versions", name], in: "/") else {
            return nil
        }
        for record in String(decoding: out, as: UTF8.self).split(separator: "\n\n") {
            let lines = record.split(separator: "\n")
            guard lines.contains(where: { $0 == "Package: " + name }) else { continue }
            let line = lines.first { $0.hasPrefix("Maintainer: ") }
            if let line { return String(line.dropFirst("Maintainer: ".count)) }
        }
        return nil
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

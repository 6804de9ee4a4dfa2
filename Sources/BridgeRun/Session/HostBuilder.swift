import BridgeSystem
import BrowserSupport

/// The host's builds: where the build puts it, whether it is older than its sources,
/// the copy the browser starts, and a rebuild running beside the browser.
struct HostBuilder {
    let project: RunProject
    /// The environment builds run with (the user's).
    let environment: [String: String]

    var searchPath: String? { environment["PATH"] }

    /// The build's command as a person would type it.
    func commandLine() throws(RunError) -> String {
        guard let (program, arguments) = project.buildCommand(searchPath: searchPath) else { throw .noSwift }
        let shown = project.kind == .builtIn ? HostBuild.builtInScript : FileSystem.lastComponent(program)
        return ([shown] + arguments).joined(separator: " ")
    }

    /// Where the release build puts the host (`swift build -c release --show-bin-path`), asked with
    /// `TMPDIR` set to `temporaryDirectory`: the Swift driver leaves empty `TemporaryDirectory.*`
    /// folders in its TMPDIR on every call, and this one builds nothing, so it needs none of the
    /// lock files SwiftPM keeps there. (The builds keep the user's TMPDIR: SwiftPM's lock on the
    /// package's `.build` is a file there, and it is what makes a build wait for the user's own.)
    func builtHostPath(temporaryDirectory: String) throws(RunError) -> String {
        guard let swift = Platform.executable(named: "swift", searchPath: searchPath) else { throw .noSwift }
        var environment = environment
        environment["TMPDIR"] = temporaryDirectory
        let result: Subprocess.Result
        do {
            result = try Subprocess.run(
                swift, arguments: HostBuild.binPathArguments, environment: environment,
                workingDirectory: project.folder, input: [], timeoutMilliseconds: 120_000, ownProcessGroup: true)
        } catch {
            throw .buildFailed(command: "swift " + HostBuild.binPathArguments.joined(separator: " "), status: 127)
        }
        let folder = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
        guard result.status == 0, folder.hasPrefix("/") else {
            throw .buildFailed(
                command: "swift " + HostBuild.binPathArguments.joined(separator: " "), status: result.status)
        }
        return folder + "/" + project.hostProduct
    }

    /// True when the host at `path` is missing or older than a file of `sources`.
    static func isStale(_ path: String, sources: SourceTree) -> Bool {
        guard let status = try? FileSystem.status(path, followLinks: true), status.isRegular else { return true }
        return status.identity.modified < sources.newestModification
    }

    /// Builds in the foreground, each line of output handed to `line` as it comes (the first
    /// build, before the browser starts), glibc's dlopen warning as the note `scripts/build.sh`
    /// prints (`HostBuild.shown`). Ctrl-C ends the build's process group.
    func buildNow(line: @escaping (String) -> Void) throws(RunError) {
        guard let (program, arguments) = project.buildCommand(searchPath: searchPath) else { throw .noSwift }
        var lines = LineBuffer()
        let result: Subprocess.Result
        do {
            result = try Subprocess.run(
                program, arguments: arguments, environment: environment, workingDirectory: project.folder, input: [],
                timeoutMilliseconds: 3_600_000, ownProcessGroup: true,
                forward: { _, bytes in for text in lines.add(bytes) { line(HostBuild.shown(text)) } })
        } catch {
            throw .buildFailed(command: try commandLine(), status: 127)
        }
        for text in lines.finish() { line(HostBuild.shown(text)) }
        if result.status != 0 { throw .buildFailed(command: try commandLine(), status: result.status) }
    }

    /// Copies the built host to `destination` by a rename beside it: a host the browser is
    /// running keeps the old file, the next one starts the new.
    static func install(_ built: String, at destination: String) throws(RunError) {
        do {
            let bytes = try FileSystem.readFile(built)
            let temporary = FileSystem.parentPath(destination) + "/.new-" + FileSystem.lastComponent(destination)
            try FileSystem.writeAtomically(temporary, bytes, permissions: 0o700)
            try FileSystem.move(temporary, destination)
        } catch {
            throw .folder(error)
        }
    }
}

/// A rebuild running beside the browser: its output is read as it comes, so the
/// session's loop never waits for it.
final class BuildJob {
    let process: ChildProcess
    /// Its standard output and error, non-blocking.
    let output: FileDescriptor
    /// The sources as they were when it started: a change after that builds again.
    let sources: SourceTree
    let startedMilliseconds: Int64
    private(set) var lines = LineBuffer(keep: 400)
    private var outputClosed = false
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)

    init(builder: HostBuilder, sources: SourceTree) throws(RunError) {
        guard let (program, arguments) = builder.project.buildCommand(searchPath: builder.searchPath) else {
            throw .noSwift
        }
        let pipe: (read: FileDescriptor, write: FileDescriptor)
        do {
            pipe = try FileDescriptor.pipe()
        } catch {
            throw .folder(error)
        }
        defer { pipe.write.close() }
        do {
            process = try ChildProcess.spawn(
                program, arguments: arguments, environment: builder.environment,
                workingDirectory: builder.project.folder, descriptors: [nil, pipe.write, pipe.write])
        } catch {
            pipe.read.close()
            throw .buildFailed(command: try builder.commandLine(), status: 127)
        }
        output = pipe.read
        output.setNonBlocking(true)
        self.sources = sources
        startedMilliseconds = MonotonicClock.system.milliseconds
    }

    /// Reads what the build printed since the last call.
    func readOutput() {
        while !outputClosed {
            switch output.readAvailable(into: &buffer) {
            case .bytes(let bytes): _ = lines.add(bytes)
            case .nothing: return
            case .end: outputClosed = true
            }
        }
    }

    /// The build's exit status once it has ended and its output is read; else nil.
    func finished() -> Int32? {
        readOutput()
        guard let status = process.reap() else { return nil }
        readOutput()
        _ = lines.finish()
        output.close()
        outputClosed = true
        return status
    }

    /// The lines to show for a failed build: the compiler's errors, else its last lines.
    var errorLines: [String] {
        let errors = lines.tail.filter { $0.contains("error:") }
        return (errors.isEmpty ? Array(lines.tail.suffix(15)) : Array(errors.prefix(20))).map(HostBuild.shown)
    }

    func stop() {
        process.terminate(graceMilliseconds: 2000)
        if !outputClosed { output.close() }
        outputClosed = true
    }
}

import BridgeJSON
import BridgeKeychain
import BridgeSystem
import SharedSuite

/// What a command may touch: passed in, so tests run commands in-process.
public struct CLIContext {
    public var environment: Environment
    /// Writes bytes to standard output; throws when the reader is gone.
    public var writeOut: ([UInt8]) throws(SystemError) -> Void
    /// Writes a line to standard error as it is; use `writeErr(_:)`.
    private var errorSink: (String) -> Void
    /// Reads all of standard input, stopping past `inputLimit`.
    public var readIn: () throws(SystemError) -> [UInt8]
    /// The most the CLI reads as one input (`write --from`, `import`, `files write`).
    public static let inputLimit = 256 << 20
    /// True when standard output is a terminal: `out` then escapes controls too.
    public var outputIsTerminal = false
    /// When standard output is a pipe: waits until its reader has read
    /// everything written so far (`.read`) or has gone (`.readerGone`), so a
    /// queue item is removed only once it is out of the pipe. Nil otherwise.
    public var awaitOutputRead: (() throws(SystemError) -> FileDescriptor.PipeReadResult)?
    /// When standard input is a terminal: reads one line without showing it
    /// (`secret set`), at most `limit` bytes kept. Nil otherwise.
    public var readHiddenLine: ((_ limit: Int) throws(SystemError) -> [UInt8])?
    /// The secret store of a group (`secret`, `doctor`): the system's, unless a test replaces it.
    public var makeSecrets: (_ groupID: String) -> any SecretStore

    public init(
        environment: Environment, writeOut: @escaping ([UInt8]) throws(SystemError) -> Void,
        writeErr: @escaping (String) -> Void, readIn: @escaping () throws(SystemError) -> [UInt8]
    ) {
        self.environment = environment
        self.writeOut = writeOut
        self.errorSink = writeErr
        self.readIn = readIn
        self.makeSecrets = { KeychainSecretStore.system(groupID: $0, environment: environment) }
    }

    /// The real process streams.
    public static func standard() -> CLIContext {
        var context = CLIContext(
            environment: .current(),
            writeOut: { (bytes) throws(SystemError) in try FileDescriptor.standardOutput.writeAll(bytes) },
            writeErr: { line in try? FileDescriptor.standardError.writeAll(Array((line + "\n").utf8)) },
            readIn: { () throws(SystemError) -> [UInt8] in
                var all: [UInt8] = []
                var chunk = [UInt8](repeating: 0, count: 65_536)
                // Stops one byte past the limit: `checkInputSize` then refuses it, and an
                // endless input (`yes |`) ends with that error instead of taking all memory.
                while all.count <= CLIContext.inputLimit {
                    let n = try FileSystem.readInto(&chunk, from: 0, fd: .standardInput)
                    if n == 0 { return all }
                    all.append(contentsOf: chunk[0..<n])
                }
                return all
            })
        context.outputIsTerminal = FileDescriptor.standardOutput.isTerminal
        if FileDescriptor.standardOutput.isPipe {
            context.awaitOutputRead = { () throws(SystemError) in try FileDescriptor.standardOutput.waitUntilRead() }
        }
        if FileDescriptor.standardInput.isTerminal {
            context.readHiddenLine = { (limit) throws(SystemError) in
                try Terminal.readLineHidden(.standardInput, limit: limit)
            }
        }
        return context
    }

    /// Prints `text` and a newline to standard output. Every control
    /// character but line breaks and tabs is escaped (`DisplayText`): a page
    /// title or a file name cannot drive the terminal. Inside JSON strings
    /// the escapes are JSON's own, so `--json` output stays the same JSON.
    /// - Parameter brokenPipe: the exit kind when the reader is gone (`EPIPE`).
    func print(_ text: String, brokenPipe: CLIError.Kind = .io) throws(CLIError) {
        var line = text + "\n"
        try out(line.withUTF8 { DisplayText.escaped(utf8: $0, breaks: .kept) }, brokenPipe: brokenPipe)
    }

    /// Writes a line to standard error, control characters escaped as `print` does.
    func writeErr(_ line: String) {
        errorSink(DisplayText.escaped(line, breaks: .kept))
    }

    /// Writes data (`files read`, `export`) to standard output: exactly as
    /// it is into a pipe or a file, with control characters escaped as
    /// `print` does when standard output is a terminal (a saved page's bytes
    /// must not drive it). Maps failure to an I/O error (`brokenPipe` when
    /// the reader is gone).
    func out(_ bytes: [UInt8], brokenPipe: CLIError.Kind = .io) throws(CLIError) {
        do {
            if outputIsTerminal {
                var text = String(decoding: bytes, as: UTF8.self)
                try writeOut(text.withUTF8 { DisplayText.escaped(utf8: $0, breaks: .kept) })
                return
            }
            try writeOut(bytes)
        } catch {
            let gone = error.code == Errno.brokenPipe
            throw CLIError(
                gone ? brokenPipe : .io,
                "cannot write to standard output: \(error)" + (gone ? " (its reader went away)" : ""))
        }
    }
}

extension CLIContext {
    /// The bytes of `source` (`-`: standard input) for `write --from`, `import` and `files write`,
    /// refused past `inputLimit`.
    func readInput(_ source: String) throws(CLIError) -> [UInt8] {
        let bytes: [UInt8]
        do {
            bytes = source == "-" ? try readIn() : try FileSystem.readFile(source, limit: Self.inputLimit + 1)
        } catch {
            // Only a regular file is read by name (a FIFO could block for ever): say what to do instead.
            if error.code == Errno.invalidArgument {
                throw CLIError(
                    .data,
                    "cannot read \(source): it is not a regular file (a pipe, a device); to read a pipe or "
                        + "<(…), give - and redirect it to standard input")
            }
            throw CLIError(error.isNotFound ? .missing : .io, "cannot read \(source): \(error)")
        }
        try Self.checkInputSize(bytes, from: source)
        return bytes
    }

    /// Refuses an input over `inputLimit`, read from `source` (`-`: standard input).
    private static func checkInputSize(_ bytes: [UInt8], from source: String) throws(CLIError) {
        guard bytes.count > inputLimit else { return }
        let name = source == "-" ? "standard input" : source
        throw CLIError(.data, "\(name) is over \(inputLimit >> 20) MiB, the most extension-bridge reads as one input")
    }
}

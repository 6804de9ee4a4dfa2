import BridgeJSON
import Foundation

/// The built executables: `EXTENSION_BRIDGE_BIN_DIR`, else `.build/debug` of this checkout.
enum Binaries {
    static let folder: String = {
        if let dir = ProcessInfo.processInfo.environment["EXTENSION_BRIDGE_BIN_DIR"] { return dir }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug").path
    }()

    /// The binaries were built with a sanitizer (test.sh puts them under `asan/` or `tsan/`).
    static var isSanitized: Bool { folder.contains("/asan/") || folder.contains("/tsan/") }
    /// Built with ThreadSanitizer, whose runtime dies of SIGBUS before `main`
    /// under a file-size limit (`ulimit -f`): such tests run in the other builds.
    static var isThreadSanitized: Bool { folder.contains("/tsan/") }

    static var host: String { folder + "/extension-bridge-host" }
    static var cli: String { folder + "/extension-bridge" }
}

/// A frame as a browser writes it.
func frameBytes(_ body: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    withUnsafeBytes(of: UInt32(body.count)) { out.append(contentsOf: $0) }
    return out + body
}

func frameBytes(_ json: JSONValue) -> [UInt8] { frameBytes(JSONWriter.bytes(json)) }

/// Splits a whole stdout capture into frame bodies; fails on stray bytes.
func splitFrames(_ bytes: [UInt8]) throws -> [JSONValue] {
    var out: [JSONValue] = []
    var i = 0
    while i < bytes.count {
        guard i + 4 <= bytes.count else { throw StrayBytes(offset: i) }
        let n = Int(bytes[i..<(i + 4)].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) })
        guard i + 4 + n <= bytes.count else { throw StrayBytes(offset: i) }
        out.append(try JSONParser.parse(Array(bytes[(i + 4)..<(i + 4 + n)])))
        i += 4 + n
    }
    return out
}

struct StrayBytes: Error { let offset: Int }

/// What a finished process left.
struct Finished {
    var status: Int32
    var stdout: [UInt8]
    var stderr: String
    var outText: String { String(decoding: stdout, as: UTF8.self) }
}

/// Writing to a child that already exited must be an `EPIPE` error in the
/// test process, not a SIGPIPE that ends the whole test run (a host refusing
/// its caller exits before reading its input). Set before the first child.
func ignoreBrokenPipes() { signal(SIGPIPE, SIG_IGN) }

/// Runs a program to completion with `input` on stdin.
func runProcess(_ path: String, _ arguments: [String], environment: [String: String], input: [UInt8] = []) throws
    -> Finished
{
    ignoreBrokenPipes()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.environment = environment
    let inPipe = Pipe()
    let outPipe = Pipe()
    let errPipe = Pipe()
    process.standardInput = inPipe
    process.standardOutput = outPipe
    process.standardError = errPipe
    try process.run()
    let writer = Thread {
        try? inPipe.fileHandleForWriting.write(contentsOf: Data(input))
        try? inPipe.fileHandleForWriting.close()
    }
    writer.start()
    let errData = Locked(Data())
    let errReader = Thread { errData.set(errPipe.fileHandleForReading.readDataToEndOfFile()) }
    errReader.start()
    let outData = outPipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    // isFinished, not isExecuting: a thread that has not started yet is not executing either.
    while !errReader.isFinished || !writer.isFinished { usleep(1000) }
    return Finished(
        status: process.terminationStatus, stdout: Array(outData),
        stderr: String(decoding: errData.value, as: UTF8.self))
}

/// A long-lived host, as a browser holds one behind `connectNative`. One thread
/// may send while another receives (they use different pipes).
final class HostPort: @unchecked Sendable {
    let process = Process()
    private let inPipe = Pipe()
    private let outPipe = Pipe()
    private let errPipe = Pipe()
    private var buffer: [UInt8] = []

    init(arguments: [String] = ["chrome-extension://testext/"], environment: [String: String]) throws {
        ignoreBrokenPipes()
        process.executableURL = URL(fileURLWithPath: Binaries.host)
        process.arguments = arguments
        process.environment = environment
        process.standardInput = inPipe
        process.standardOutput = outPipe
        process.standardError = errPipe
        try process.run()
    }

    func send(_ json: JSONValue) throws { try inPipe.fileHandleForWriting.write(contentsOf: Data(frameBytes(json))) }
    func sendRaw(_ bytes: [UInt8]) throws { try inPipe.fileHandleForWriting.write(contentsOf: Data(bytes)) }
    func closeInput() throws { try inPipe.fileHandleForWriting.close() }

    /// The next frame, or nil when none arrives within `timeout` seconds.
    func receive(timeout: Double = 5) throws -> JSONValue? {
        let fd = outPipe.fileHandleForReading.fileDescriptor
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if buffer.count >= 4 {
                let n = Int(buffer[0..<4].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) })
                if buffer.count >= 4 + n {
                    let body = Array(buffer[4..<(4 + n)])
                    buffer.removeFirst(4 + n)
                    return try JSONParser.parse(body)
                }
            }
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { return nil }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&pfd, 1, Int32(left * 1000)) <= 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let got = read(fd, &chunk, chunk.count)
            if got <= 0 { return nil }
            buffer += chunk[0..<got]
        }
    }

    /// Sends a request and waits for the reply.
    func request(_ json: JSONValue) throws -> JSONValue? {
        try send(json)
        return try receive()
    }

    func waitForExit() -> Int32 {
        process.waitUntilExit()
        return process.terminationStatus
    }

    var stderrText: String { String(decoding: errPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) }

    /// How the host ended and what it logged, for failure messages.
    var ending: String {
        "\(process.terminationReason == .exit ? "exit" : "signal") \(process.terminationStatus); stderr: \(stderrText)"
    }
}

/// A value shared between threads under a lock.
final class Locked<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T

    init(_ value: T) { stored = value }

    var value: T {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }

    func set(_ value: T) {
        lock.lock()
        stored = value
        lock.unlock()
    }

    func update(_ change: (inout T) -> Void) {
        lock.lock()
        change(&stored)
        lock.unlock()
    }
}

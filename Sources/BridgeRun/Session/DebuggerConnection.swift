import BridgeJSON
import BridgeSystem

/// What one non-blocking read gave.
enum Available {
    case bytes(ArraySlice<UInt8>)
    /// Nothing now; more may come.
    case nothing
    /// The other end closed (or the descriptor failed).
    case end
}

extension FileDescriptor {
    /// One read of a non-blocking descriptor into `buffer`.
    func readAvailable(into buffer: inout [UInt8]) -> Available {
        let result = buffer.withUnsafeMutableBytes { raw in
            Result { () throws(SystemError) in try readOnce(into: raw) }
        }
        switch result {
        case .success(.bytes(let n)): return n == 0 ? .end : .bytes(buffer[0..<n])
        case .success(.interrupted): return .nothing
        case .failure(let error): return error.code == Errno.wouldBlock ? .nothing : .end
        }
    }
}

/// The byte stream to a browser's debugger and its framing: Chromium's pipe pair
/// (NUL-terminated JSON) or Firefox's socket (length-prefixed JSON).
final class DebuggerConnection {
    private enum Framing {
        case devTools(DevToolsFrames)
        case remote(RemoteDebuggingFrames)
    }

    /// Readable when messages wait.
    let input: FileDescriptor
    private let output: FileDescriptor
    private var framing: Framing
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    /// True once the browser closed its end, or sent what no framing can follow.
    private(set) var closed = false
    /// Why it closed, when it was not the browser's doing.
    private(set) var failure: String?

    /// Chromium's pipes: `input` is the browser's descriptor 4, `output` its 3.
    init(chromiumInput input: FileDescriptor, output: FileDescriptor) {
        self.input = input
        self.output = output
        framing = .devTools(DevToolsFrames())
        input.setNonBlocking(true)
    }

    /// Firefox's debugging server socket.
    init(firefoxSocket socket: FileDescriptor) {
        input = socket
        output = socket
        framing = .remote(RemoteDebuggingFrames())
        socket.setNonBlocking(true)
    }

    func send(_ message: JSONValue) {
        guard !closed else { return }
        let bytes: [UInt8]
        switch framing {
        case .devTools: bytes = DevToolsFrames.encode(message)
        case .remote: bytes = RemoteDebuggingFrames.encode(message)
        }
        // Blocking: messages are small and the browser reads its end promptly; a socket in
        // non-blocking mode for reads gets a short wait for room.
        do {
            try output.writeAll(bytes, timeoutMilliseconds: 10_000)
        } catch {
            closed = true
        }
    }

    /// Every whole message that has arrived.
    func receive() -> [JSONValue] {
        reading: while !closed {
            switch input.readAvailable(into: &buffer) {
            case .bytes(let bytes): append(bytes)
            case .nothing: break reading
            case .end: closed = true
            }
        }
        return drain()
    }

    private func append(_ bytes: ArraySlice<UInt8>) {
        switch framing {
        case .devTools(var frames):
            frames.append(bytes)
            framing = .devTools(frames)
        case .remote(var frames):
            frames.append(bytes)
            framing = .remote(frames)
        }
    }

    private func drain() -> [JSONValue] {
        var messages: [JSONValue] = []
        do {
            switch framing {
            case .devTools(var frames):
                while let message = try frames.next() { messages.append(message) }
                framing = .devTools(frames)
            case .remote(var frames):
                while let message = try frames.next() { messages.append(message) }
                framing = .remote(frames)
            }
        } catch {
            closed = true
            failure = error.description
        }
        return messages
    }

    func close() {
        input.close()
        if output != input { output.close() }
        closed = true
    }
}

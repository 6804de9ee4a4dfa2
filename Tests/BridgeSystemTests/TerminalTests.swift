import Foundation
import Testing

@testable import BridgeSystem

/// `secret set` reads a secret from the terminal: tested on a real pseudo-terminal, as a person
/// typing would reach it.
@Suite(.serialized) struct TerminalTests {
    /// A pseudo-terminal: the controller end (what the person types, what they see) and the
    /// device end (what the program reads).
    struct PseudoTerminal {
        let controller: Int32
        let device: FileDescriptor

        init() throws {
            // posix_openpt and friends are POSIX but outside the Glibc module's default view
            // (they need _XOPEN_SOURCE): found by name in the C library instead.
            let libc = dlopen(nil, RTLD_NOW)
            func function<T>(_ name: String, as type: T.Type) throws -> T {
                unsafeBitCast(try #require(dlsym(libc, name), "no \(name)"), to: type)
            }
            typealias Open = @convention(c) (Int32) -> Int32
            typealias Grant = @convention(c) (Int32) -> Int32
            typealias Name = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
            controller = try function("posix_openpt", as: Open.self)(O_RDWR | O_NOCTTY)
            try #require(controller >= 0)
            try #require(try function("grantpt", as: Grant.self)(controller) == 0)
            try #require(try function("unlockpt", as: Grant.self)(controller) == 0)
            let name = try #require(try function("ptsname", as: Name.self)(controller))
            let fd = open(name, O_RDWR | O_NOCTTY)
            try #require(fd >= 0)
            device = FileDescriptor(rawValue: fd)
        }

        /// Types `text` from another thread once the terminal stops echoing: the read flushes
        /// input typed before it hid the echo, as a terminal read of a password does.
        func typeOnceEchoIsOff(_ text: String) {
            let controller = controller
            let device = device.rawValue
            Thread {
                var settings = termios()
                for _ in 0..<500 {
                    if tcgetattr(device, &settings) == 0 && settings.c_lflag & tcflag_t(ECHO) == 0 { break }
                    usleep(10_000)
                }
                _ = Array(text.utf8).withUnsafeBytes { write(controller, $0.baseAddress, $0.count) }
            }.start()
        }

        /// What the terminal showed, read until a quiet moment.
        func shown() -> [UInt8] {
            var out: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 256)
            var entry = pollfd(fd: controller, events: Int16(POLLIN), revents: 0)
            while poll(&entry, 1, 100) > 0 {
                let n = read(controller, &buffer, buffer.count)
                if n <= 0 { break }
                out += buffer[0..<n]
            }
            return out
        }

        func end() {
            device.close()
            close(controller)
        }
    }

    /// The secret is returned without its line break and never shown; the line break is (so the
    /// cursor moves on); echo is on again afterwards.
    @Test func readLineHidden_returnsTheLine_showsOnlyTheBreak_andRestoresEcho() throws {
        let terminal = try PseudoTerminal()
        defer { terminal.end() }
        terminal.typeOnceEchoIsOff("s3cret\n")
        let line = try Terminal.readLineHidden(terminal.device, limit: 100)
        #expect(line == Array("s3cret".utf8))
        let shown = terminal.shown()
        #expect(!String(decoding: shown, as: UTF8.self).contains("s3cret"))
        #expect(shown.contains(UInt8(ascii: "\n")))
        var settings = termios()
        #expect(tcgetattr(terminal.device.rawValue, &settings) == 0)
        #expect(settings.c_lflag & tcflag_t(ECHO) != 0)
    }

    /// A line longer than the limit is read to its end and returned cut at limit + 1 bytes, so
    /// the caller can tell it was too long.
    @Test func readLineHidden_longLine_isCutAtLimitPlusOne() throws {
        let terminal = try PseudoTerminal()
        defer { terminal.end() }
        terminal.typeOnceEchoIsOff("abcdefgh\n")
        #expect(try Terminal.readLineHidden(terminal.device, limit: 3) == Array("abcd".utf8))
    }

    @Test func readLineHidden_ofWhatIsNotATerminal_throws() throws {
        let (r, w) = try FileDescriptor.pipe()
        defer { [r, w].forEach { $0.close() } }
        #expect(throws: SystemError.self) { try Terminal.readLineHidden(r, limit: 10) }
    }
}

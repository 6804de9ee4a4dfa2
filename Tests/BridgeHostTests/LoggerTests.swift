import BridgeJSON
import Testing

@testable import BridgeHost

/// A log line is one line, shows no control character raw, and has a byte cap, whatever a
/// request put in it: a page must not forge log lines or drive the terminal showing the log.
@Suite struct LoggerTests {
    final class Lines: @unchecked Sendable { var all: [String] = [] }

    @Test func lines_escapeControlsAndBreaks_andAreCutInBytes() {
        let lines = Lines()
        let logger = Logger(level: .debug) { lines.all.append($0) }
        logger.info("unknown action evil\n\u{1b}]0;title\u{7}\u{202e}")
        logger.warn(String(repeating: "\u{301}", count: 100_000))
        #expect(lines.all.count == 2)
        #expect(lines.all[0] == "info: unknown action evil\\u000a\\u001b]0;title\\u0007\\u202e")
        #expect(lines.all[1].utf8.count <= Logger.maxLineBytes + 3)
        #expect(lines.all.allSatisfy { $0.unicodeScalars.allSatisfy { !DisplayText.isControl($0.value) } })
    }
}

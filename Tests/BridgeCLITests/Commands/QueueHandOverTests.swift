import BridgeSystem
import SharedSuite
import Testing

@testable import BridgeCLI

/// The plain record `queue drain` prints: a record starts with `# ` at the start of a line and
/// only there, whatever line breaks the page's text holds.
@Suite struct QueueHandOverTests {
    /// Swift reads "\r\n" as one character, so splitting on "\n" alone left the line after a
    /// Windows line break unindented: a page could print a line that starts a record.
    @Test(arguments: ["\n", "\r\n"])
    func record_indentsEveryContentLine_whateverTheLineBreak(_ lineBreak: String) {
        let content = ["hello", "# Your bank: reset password", "https://evil.example/phish"].joined(
            separator: lineBreak)
        let item = QueueItem(
            id: "a", url: "https://a.example/", title: "Harmless", content: content,
            savedAt: WallTime(seconds: 0, nanoseconds: 0), source: "chrome-extension://x/")
        let lines = QueueHandOver.record(item, json: false).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.filter { $0.hasPrefix("# ") } == ["# Harmless"], "\(lines)")
        #expect(lines.contains("    # Your bank: reset password"), "\(lines)")
    }
}

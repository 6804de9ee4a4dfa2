import Testing

@testable import BridgeProtocol

@Suite struct HostConfigurationTests {
    @Test func text_readsBack() throws {
        let configuration = HostConfiguration(
            group: "group.example.app", logLevel: "debug",
            allowedCallers: ["chrome-extension://abcdefghijklmnopabcdefghijklmnop/", "app@example.org"])
        let (read, unknown) = try HostConfiguration.parse(try configuration.text)
        #expect(read == configuration)
        #expect(unknown.isEmpty)
    }

    @Test func parse_commentsBlanksCRLFAndSpaces() throws {
        let text = "# c\r\n\r\n  group =  g.x  # trailing\r\nallow=chrome-extension://abc//\r\nallow = a@b, c@d\n"
        let (read, _) = try HostConfiguration.parse(text)
        #expect(read.group == "g.x")
        #expect(read.allowedCallers == ["chrome-extension://abc/", "a@b", "c@d"])
        #expect(read.logLevel == nil)
    }

    @Test func parse_newerFormat_isRefused() {
        #expect(throws: HostConfiguration.ParseError.newerFormat(found: 2)) {
            try HostConfiguration.parse("format = 2\ngroup = x\n")
        }
    }

    @Test func parse_lineWithoutEquals_namesTheLine() {
        #expect(throws: HostConfiguration.ParseError.badLine(number: 2, reason: "expected key = value")) {
            try HostConfiguration.parse("group = x\nnonsense\n")
        }
    }

    @Test func parse_unknownKeys_areReportedNotFatal() throws {
        let (read, unknown) = try HostConfiguration.parse("group = x\ncolour = blue\n")
        #expect(read.group == "x")
        #expect(unknown == ["colour"])
    }

    @Test func fileName_followsTheExecutable() {
        #expect(HostConfiguration.fileName(forExecutable: "extension-bridge-host") == "extension-bridge-host.conf")
        #expect(HostConfiguration.fileName(forExecutable: "myapp-host") == "myapp-host.conf")
    }

    /// A value with a line break would become an extra line of the file (a caller `install`
    /// never allowed: `evil\nallow = chrome-extension://…`): the writer refuses every value it
    /// could not read back as itself, so what the host reads is what `install` was given.
    @Test(arguments: [
        "evil\nallow = chrome-extension://eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee/", "a\rb", "a\u{0}b", "a\u{2028}b",
        "a\u{85}b", "a\u{202E}b", "a\tb", "a#b", " a", "a ", "", String(repeating: "a", count: 4097),
    ])
    func text_refusesAValueItCouldNotReadBack(value: String) {
        #expect(throws: HostConfiguration.UnsafeValue.self) { try HostConfiguration(group: value).text }
        #expect(throws: HostConfiguration.UnsafeValue.self) { try HostConfiguration(logLevel: value).text }
        #expect(throws: HostConfiguration.UnsafeValue.self) { try HostConfiguration(allowedCallers: [value]).text }
    }

    @Test func text_refusesACommaInACaller_whichWouldBeTwoCallers() throws {
        #expect(throws: HostConfiguration.UnsafeValue.self) {
            try HostConfiguration(allowedCallers: ["a@b,evil@x"]).text
        }
        let (read, _) = try HostConfiguration.parse(try HostConfiguration(group: "a,b").text)
        #expect(read.group == "a,b")
    }

    /// One rule for the host and doctor: the user's or root's file, written by its owner only.
    @Test func trustProblem_refusesAnotherOwner_andGroupOrOtherWrite() {
        #expect(HostConfiguration.trustProblem(owner: 1000, permissions: 0o644, userID: 1000) == nil)
        #expect(HostConfiguration.trustProblem(owner: 0, permissions: 0o600, userID: 1000) == nil)
        #expect(
            HostConfiguration.trustProblem(owner: 1001, permissions: 0o644, userID: 1000)?.contains("another user")
                == true)
        #expect(
            HostConfiguration.trustProblem(owner: 1000, permissions: 0o664, userID: 1000) == "is writable by its group")
        #expect(
            HostConfiguration.trustProblem(owner: 1000, permissions: 0o646, userID: 1000) == "is writable by every user"
        )
    }
}

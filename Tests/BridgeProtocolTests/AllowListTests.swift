import Testing

@testable import BridgeProtocol

@Suite struct AllowListTests {
    @Test func parse_commasNewlinesCommentsAndRepeats() {
        let list = AllowList.parse("chrome-extension://abc, a@b\n# x@y\n  a@b  \nchrome-extension://abc///")
        #expect(list == ["chrome-extension://abc/", "a@b"])
    }

    /// `#` starts a comment to the end of its line only; tabs and spaces around an entry go;
    /// only Chromium origins are normalised (a Firefox id is taken as written).
    @Test func parse_commentsEndAtTheLineBreak_andOnlyChromiumOriginsAreNormalised() {
        let list = AllowList.parse("\ta@b\t# chrome-extension://x/, c@d\r\nchrome-extension://y\r\nfirefox@x//")
        #expect(list == ["a@b", "chrome-extension://y/", "firefox@x//"])
        #expect(AllowList.parse("").isEmpty)
        #expect(AllowList.parse(" , ,\n#only a comment").isEmpty)
    }
}

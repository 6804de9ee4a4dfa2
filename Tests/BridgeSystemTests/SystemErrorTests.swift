import Testing

@testable import BridgeSystem

@Suite struct SystemErrorTests {
    /// An error names what failed and on what, says why in the system's words, and for the
    /// problems a user can fix says what to do next.
    @Test func description_namesOperationSubjectReason_andTheNextStep() {
        let missing = SystemError("open", "/a/suite.json", code: Errno.notFound)
        #expect(missing.description == "open /a/suite.json: No such file or directory")
        #expect(missing.isNotFound && !missing.isNoSpace && !missing.isPermission)
        #expect(SystemError("pipe", code: Errno.notFound).description == "pipe: No such file or directory")

        for code in [Errno.noSpace, Errno.quotaExceeded, Errno.fileTooLarge] {
            let full = SystemError("write", "f", code: code)
            #expect(full.isNoSpace)
            #expect(full.description.hasSuffix("(free some disk space and try again)"))
        }
        for code in [Errno.permissionDenied, Errno.notPermitted, Errno.readOnlyFileSystem] {
            let denied = SystemError("create", "f", code: code)
            #expect(denied.isPermission)
            #expect(denied.description.hasSuffix("(check the folder's owner and permissions)"))
        }
        #expect(SystemError("open", "f", code: Errno.tooManyLinks).description.hasSuffix("never followed)"))
        #expect(SystemError("write", code: Errno.brokenPipe).isBrokenPipe)
        #expect(SystemError("write", code: Errno.timedOut).isTimeout)
    }

    @Test func reason_isTheSystemsText_orTheNumber() {
        #expect(SystemError("x", code: Errno.exists).reason == "File exists")
        #expect(SystemError("x", code: 99_999).reason.contains("99999"))
    }

    /// Made right after a failed call, it takes that call's errno.
    @Test func init_takesErrnoNowByDefault() throws {
        #expect(throws: SystemError("open", "/nonexistent/x", code: Errno.notFound)) {
            _ = try FileDescriptor.openForReading("/nonexistent/x")
        }
    }
}

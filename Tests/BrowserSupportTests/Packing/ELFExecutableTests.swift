import BridgeSystem
import Testing

@testable import BrowserSupport

@Suite struct ELFExecutableTests {
    @Test func elf_staticOnlyWithoutAnInterpreter() throws {
        // This test binary is a dynamic executable; a static one is checked end to end (deb-test, ldd).
        let me = try FileSystem.readFile(CommandLine.arguments[0], limit: 1 << 30)
        #expect(!ELFExecutable.isStatic(me))
        #expect(!ELFExecutable.isStatic(Array("#!/bin/sh\n".utf8)))
        #expect(!ELFExecutable.isStatic([]))
    }

    @Test func elf_aHeaderWithoutProgramHeaders_isStatic() {
        #expect(ELFExecutable.isStatic(DebianLayoutTests.staticHost))
    }
}

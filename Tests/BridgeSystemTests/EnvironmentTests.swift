import Foundation
import Testing

@testable import BridgeSystem

@Suite struct EnvironmentTests {
    enum Name: String { case home = "HOME", missing = "EXTENSION_BRIDGE_TEST_UNSET" }

    /// An empty variable counts as unset: `EXTENSION_BRIDGE_X=` in a shell must not mean "the
    /// empty path" or "the empty group".
    @Test func givenValues_emptyIsUnset_andNamesFromATableReadTheSame() {
        let environment = Environment(["HOME": "/home/a", "EMPTY": ""])
        #expect(environment["HOME"] == "/home/a")
        #expect(environment[Name.home] == "/home/a")
        #expect(environment["EMPTY"] == nil)
        #expect(environment[Name.missing] == nil)
    }

    /// The process environment is read by name when asked, not copied when made: a variable set
    /// after `current()` is seen.
    @Test func current_readsTheProcessEnvironmentAtEachLookup() {
        let name = "EXTENSION_BRIDGE_ENVIRONMENT_TEST"
        let environment = Environment.current()
        setenv(name, "one", 1)
        defer { unsetenv(name) }
        #expect(environment[name] == "one")
        setenv(name, "", 1)
        #expect(environment[name] == nil)
    }

    @Test func anExecutableByName_isFoundOnTheSearchPath() {
        #expect(Platform.executable(named: "sh", searchPath: "/nonexistent:/bin:/usr/bin") == "/bin/sh")
        #expect(Platform.executable(named: "/bin/sh", searchPath: nil) == "/bin/sh")
        #expect(Platform.executable(named: "no-such-program-here", searchPath: "/bin:/usr/bin") == nil)
        #expect(Platform.executable(named: "sh", searchPath: "bin:relative") == nil)
    }

    @Test func theProcessVariables_areEveryVariable() {
        let variables = Environment.processVariables()
        #expect(variables["PATH"] == Environment.current()["PATH"])
        #expect(!variables.isEmpty)
    }
}

import BridgeSystem
import SharedSuite
import Testing

@testable import BridgeCLI

@Suite struct InvocationTests {
    let commands = BridgeCLI.commands

    @Test func globalOptions_anywhere() throws {
        let invocation = try Invocation(["--suite", "group.x", "read", "key", "--json"], commands: commands)
        #expect(invocation.suiteID == "group.x")
        #expect(invocation.json)
        #expect(invocation.command?.name == "read")
        #expect(invocation.operands == ["key"])
    }

    @Test func doubleDash_endsOptions() throws {
        #expect(try Invocation(["write", "k", "--", "--json"], commands: commands).operands == ["k", "--json"])
    }

    @Test func unknownOption_isUsageError() {
        #expect(throws: CLIError.self) { try Invocation(["--frobnicate"], commands: commands) }
        #expect(throws: CLIError.self) { try Invocation(["read", "--suite"], commands: commands) }
    }

    @Test(arguments: [
        (["read", "--dry-run", "x"], "`read` does not take the option --dry-run"),
        (["queue", "list", "--all"], "`queue list` does not take the option --all"),
        (["doctor", "--destdir", "/x"], "`doctor` does not take the option --destdir"),
        (["enable", "--system"], "`enable` does not take the option --system"),
        (["install", "extra"], "`install` takes no operands"),
        (["delete"], "`delete` takes KEY"),
        (["files", "read"], "`files read` takes NAME"),
        (["queue", "drain", "--all=yes"], "--all takes no value"),
        (["queue", "empty"], "unknown queue command 'empty'"),
    ])
    func optionOrOperandTheVerbDoesNotTake_isUsageErrorNamingTheVerb(arguments: [String], message: String) {
        #expect {
            try Invocation(arguments, commands: commands)
        } throws: { error in
            guard let error = error as? CLIError else { return false }
            return error.kind == .usage && error.message.contains(message)
        }
    }

    @Test func allMeansWhatEachVerbDeclares() throws {
        #expect(try Invocation(["queue", "drain", "--all"], commands: commands).has(QueueVerb.all))
        #expect(try Invocation(["doctor", "--all"], commands: commands).has(DoctorVerbOptions.all))
        let drain = commands.flatMap(\.flattened).first { $0.name == "queue drain" }?.option("--all")
        let doctor = commands.first { $0.name == "doctor" }?.option("--all")
        #expect(drain?.help != doctor?.help)
    }

    @Test func repeatedOptions_joinWithCommas() throws {
        let invocation = try Invocation(
            ["install", "--browser", "chromium", "--browser=firefox", "--extension-id", "a", "--extension-id", "b"],
            commands: commands)
        #expect(invocation.flags["--browser"] == "chromium,firefox")
        #expect(invocation.flags["--extension-id"] == "a,b")
    }

    @Test func everyOptionName_takesAValueEverywhereOrNowhere() {
        var arity: [String: Bool] = [:]
        for option in commands.flatMap(\.flattened).flatMap(\.options) + GlobalOptions.all {
            if let known = arity[option.name] { #expect(known == (option.valueName != nil), "\(option.name)") }
            arity[option.name] = option.valueName != nil
        }
    }

    /// The commands trust the parser's operand counts (no second check of their own): a wrong
    /// count is refused by the parser, with exit 64, the verb's synopsis and nothing touched.
    @Test(arguments: [
        (["read", "a", "b"], "`read` takes [KEY]"), (["write", "k"], "`write` takes KEY [-TYPE] VALUE…"),
        (["write"], "`write` takes KEY"), (["delete"], "`delete` takes KEY"),
        (["delete", "a", "b"], "`delete` takes KEY"),
        (["export", "a", "b"], "`export` takes [FILE|-]"), (["import", "a", "b"], "`import` takes [FILE|-]"),
        (["queue", "remove"], "`queue remove` takes ID…"),
        (["new", "--host-name", "com.example.a", "--group", "group.a"], "`new` takes NAME"),
        (["new", "A", "B", "--host-name", "com.example.a", "--group", "group.a"], "`new` takes NAME"),
    ])
    func wrongOperandCount_isTheParsersRefusal(arguments: [String], message: String) throws {
        let h = Harness()
        #expect(h.run("write", "kept", "-int", "1") == 0)
        let project = h.tmp.path + "/project"
        #expect(h.run(arguments.first == "new" ? arguments + ["--dir", project] : arguments) == 64)
        #expect(h.err.count == 1 && h.err.first?.contains(message) == true, "\(h.err)")
        #expect(h.out.isEmpty)
        #expect(try Suite(container: h.container).snapshot().values == ["kept": .int(1)])
        #expect((try? FileSystem.status(project)) == nil)
    }
}

/// The habits users of git, cargo and apt bring: `-h`, and "did you mean" for a typo.
@Suite struct InvocationHabitsTests {
    let commands = BridgeCLI.commands

    @Test func dashH_isHelp_everywhereHelpIs_butAnOperandAfterDoubleDash() throws {
        #expect(try Invocation(["-h"], commands: commands).help)
        #expect(try Invocation(["write", "-h"], commands: commands).help)
        #expect(try Invocation(["queue", "-h"], commands: commands).help)
        #expect(try Invocation(["queue", "drain", "-h"], commands: commands).help)
        #expect(try Invocation(["write", "k", "--", "-h"], commands: commands).operands == ["k", "-h"])
        let h = Harness()
        #expect(h.run("write", "-h") == 0 && h.stdout.contains("Usage: extension-bridge write"))
    }

    @Test(arguments: [
        (["wrte", "k", "v"], "unknown command 'wrte' (did you mean `write`?)"),
        (["--sute", "x", "read"], "unknown option --sute (did you mean `--suite`?)"),
        (["queue", "drian"], "unknown queue command 'drian' (did you mean `drain`?)"),
        (["read", "--jsno"], "unknown option --jsno (did you mean `--json`?)"),
    ])
    func typo_saysDidYouMean(arguments: [String], message: String) {
        #expect {
            try Invocation(arguments, commands: commands)
        } throws: { error in
            (error as? CLIError)?.kind == .usage && (error as? CLIError)?.message.contains(message) == true
        }
    }

    @Test func farFromEveryName_suggestsNothing() {
        #expect(Suggestion.closest(to: "frobnicate", among: commands.compactMap(\.path.first)) == nil)
        #expect(Suggestion.closest(to: "rd", among: ["read"]) == nil)
        #expect(Suggestion.closest(to: "wirte", among: ["write", "where"]) == "write")
    }
}

import BridgeJSON
import BridgeProtocol
import SharedSuite

extension Doctor {
    /// The `suite` row when the group's container cannot be used at all (the CLI refuses another
    /// user's): an error naming why, so doctor still prints every other row.
    public static func refusedSuiteCheck(groupID: String, reason: String) -> DoctorCheck {
        DoctorCheck(browser: "-", scope: "suite", path: groupID, status: .error, detail: reason, fix: nil)
    }

    /// The suite row when `EXTENSION_BRIDGE_CONTAINER` names the container in doctor's environment:
    /// a browser starts the host without it, so what the pages see is another suite. A warning,
    /// never "ok", whatever the row found there.
    /// Its fix runs doctor again without it (a fix for that suite would act on the wrong one).
    public static func containerOverridden(_ row: DoctorCheck, by container: String, tool: String) -> DoctorCheck {
        var row = row
        if row.status == .ok { row.status = .warning }
        row.detail +=
            "; but this is \(EnvironmentVariable.container.name)=\(container), set in this shell only: the host a "
            + "browser starts does not see it and reads its group's own folder"
        row.fix = "unset \(EnvironmentVariable.container.name); \(tool) doctor"
        return row
    }

    /// The `secrets` row, a row like the others so the summary counts it: ok when `secret` and
    /// `getSecret` answer through `backend`, a warning when they cannot (no command fixes that).
    public static func secretsCheck(ok: Bool, backend: String, detail: String) -> DoctorCheck {
        DoctorCheck(
            browser: "-", scope: "secrets", path: "", status: ok ? .ok : .warning, detail: backend + ": " + detail,
            fix: nil)
    }

    /// The row for the suite of `container`: ok when every key the host reads has a type it reads
    /// as meant and the extension is on; a warning naming each key that does not, with the type
    /// found and the `write` that fixes it, or saying the extension is off, with the `enable`;
    /// an error when the suite cannot be read.
    /// - Parameter tool: how a fix line runs this program (``toolCommand(executable:searchPath:)``).
    public static func suiteCheck(_ container: GroupContainer, tool: String) -> DoctorCheck {
        let suiteOption = container.groupID == GroupContainer.defaultGroupID ? "" : " --suite " + container.groupID
        var check = DoctorCheck(
            browser: "-", scope: "suite", path: container.suitePath, status: .ok, detail: "", fix: nil)
        let snapshot: SuiteSnapshot
        do {
            snapshot = try Suite(container: container).snapshot()
        } catch {
            // The host refuses every request on a suite it cannot read: broken, not a warning.
            check.status = .error
            check.detail = "cannot be read (\(error)); the host answers every request with suite_unreadable"
            check.fix = tool + " repair" + suiteOption
            return check
        }
        let values = snapshot.values
        let mismatches = values.keys.sorted().compactMap { key in
            values[key].flatMap { SuiteKeys.mismatch(key: key, value: $0) }
        }
        guard mismatches.isEmpty else {
            check.status = .warning
            check.detail = mismatches.map(\.description).joined(separator: "; ")
            let fixes = mismatches.compactMap(\.writeArguments)
            check.fix =
                fixes.isEmpty ? nil : fixes.map { tool + " write" + suiteOption + " " + $0 }.joined(separator: "; ")
            if fixes.count < mismatches.count {
                check.detail +=
                    " (no one command keeps what is there: `write` replaces a whole value; rewrite it with "
                    + "`\(tool) write\(suiteOption) vocabulary -dict WORD REPLACEMENT …` or `export\(suiteOption)`, "
                    + "edit, `import\(suiteOption)`)"
            }
            return check
        }
        let enabled = SuiteKeys.isEnabled(snapshot)
        guard container.exists else {
            // Not "ok …/suite.json" for a file that is not there: say the group is new.
            check.path = container.path
            check.detail =
                "no suite yet: nothing was written to \(container.groupID), so the host answers its defaults and "
                + "the extension is off (turn it on with: \(tool) enable\(suiteOption))"
            check.status = .warning
            check.fix = tool + " enable" + suiteOption
            return check
        }
        check.detail =
            "the keys the host reads have types it reads; the extension is "
            + (enabled ? "on" : "off (turn it on with: \(tool) enable\(suiteOption))")
        // Off is the user's to choose, but pages do not change while it is: never "Everything checks out."
        if !enabled {
            check.status = .warning
            check.fix = tool + " enable" + suiteOption
        }
        return check
    }
}

extension SuiteKeyMismatch {
    /// The `write` operands that store `suggested`, each shell-quoted (`vocabulary -dict blue
    /// blauw`, with `--` before words that start with `-`, which would read as options); nil when
    /// there is none, when a word holds a character the printed line escapes (a control or bidi
    /// character: pasted, the escape would be stored), or when it would be over 4,096 characters.
    /// Options (`--suite`) go before it.
    public var writeArguments: String? {
        let operands: String
        switch suggested {
        case .bool(let value)?: operands = "-bool \(value)"
        case .string(let value)?: operands = "-string " + value.shellQuoted
        case .dictionary(let members)?:
            var words: [String] = []
            for (word, value) in members.sorted(by: { $0.key < $1.key }) {
                guard case .string(let text) = value else { return nil }
                words += [word, text]
            }
            let escaped = words.contains { $0.unicodeScalars.contains { DisplayText.isControl($0.value) } }
            if escaped { return nil }
            let endOfOptions = words.contains { $0.hasPrefix("-") } ? "-- " : ""
            operands = "-dict " + endOfOptions + words.map(\.shellQuoted).joined(separator: " ")
        default: return nil
        }
        let arguments = key + " " + operands
        return arguments.utf8.count <= 4096 ? arguments : nil
    }
}

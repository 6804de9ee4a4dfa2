import BridgeProtocol
import BridgeSystem
import SharedSuite

/// `--help` pages and the overview, made from the declarations.
enum HelpText {
    static let exitStatus =
        "Exit status: 0 ok, 1 doctor found a problem, 64 usage, 65 bad data, 66 missing key or file, "
        + "69 a service or tool unavailable (secrets, openssl, a Debian tool), 70 an internal error, "
        + "73 a file of the package or another user that install would change, 74 I/O, "
        + "75 lock timeout, 77 refused: a source another user could have changed, "
        + "123 queue drain --exec: CMD failed on an item (it stays queued), "
        + "130 a prompt cancelled (Ctrl-C) or queue drain --exec stopped by SIGINT or SIGTERM, "
        + "141 the reader of queue drain/watch's output went away (what it did not read stays queued)."

    static var containerNote: String {
        "The container is EXTENSION_BRIDGE_CONTAINER if set, else "
            + "\(Platform.groupContainersRoot(home: "~", xdgDataHome: nil))/ID."
    }

    /// Every command, grouped by section, with global options and exit codes.
    static func overview(_ commands: [CommandSpec]) -> String {
        var lines = [
            "extension-bridge \(BridgeVersion.current): settings and queue of ExtensionBridge's shared suite.", "",
            "Usage: extension-bridge [--suite ID] [--json] COMMAND [ARGS]",
        ]
        var sections: [String] = []
        for command in commands where !sections.contains(command.section) { sections.append(command.section) }
        for section in sections {
            lines += ["", section + ":"]
            for command in commands where command.section == section {
                for entry in command.subcommands.isEmpty ? [command] : command.subcommands {
                    let words = (entry.path + entry.operands.map(\.synopsis)).joined(separator: " ")
                    lines.append("  " + pad(words, 30) + " " + entry.abstract)
                }
            }
        }
        lines += ["", "Options:"]
        for option in GlobalOptions.all { lines.append("  " + pad(option.synopsis, 30) + " " + option.help) }
        lines += [
            "", "Run `extension-bridge COMMAND --help` for a command's options.", "", exitStatus, containerNote,
        ]
        return lines.joined(separator: "\n")
    }

    /// One command's page: usage, abstract, options, discussion.
    static func page(_ command: CommandSpec) -> String {
        var lines = ["Usage: " + command.synopsis, "", command.abstract]
        if !command.subcommands.isEmpty {
            lines += ["", "Commands:"]
            for sub in command.subcommands {
                let words = (sub.path + sub.options.map { "[\($0.synopsis)]" } + sub.operands.map(\.synopsis))
                    .joined(separator: " ")
                lines.append("  " + pad(words, 30) + " " + sub.abstract)
            }
        }
        if !command.options.isEmpty {
            lines += ["", "Options:"]
            for option in command.options { lines.append("  " + pad(option.synopsis, 24) + " " + option.help) }
        }
        if !command.discussion.isEmpty { lines += ["", command.discussion] }
        lines += ["", "Global options: " + GlobalOptions.all.map(\.synopsis).joined(separator: ", ")]
        return lines.joined(separator: "\n")
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}

import BridgeProtocol
import BridgeSystem

/// extension-bridge(1) in roff, made from the declarations (`extension-bridge man`).
enum ManPage {
    static func render(_ commands: [CommandSpec]) -> String {
        var s = [
            ".TH EXTENSION\\-BRIDGE 1 \"\" \"ExtensionBridge \(BridgeVersion.current)\" \"User Commands\"",
            ".SH NAME",
            "extension\\-bridge \\- settings, queue and browser registration of ExtensionBridge",
            ".SH SYNOPSIS",
            ".B extension\\-bridge",
            "[\\fB\\-\\-suite\\fR \\fIID\\fR] [\\fB\\-\\-json\\fR] \\fICOMMAND\\fR [\\fIARGS\\fR]",
            ".SH DESCRIPTION",
            escape(
                "extension-bridge reads and writes the shared suite that extension-bridge-host answers "
                    + "the ExtensionBridge web extension from, drains the queue of what the extension saved, "
                    + "and registers the host with browsers through native-messaging host manifests."),
            ".SH COMMANDS",
        ]
        for command in commands.flatMap(\.flattened) {
            s.append(".TP")
            s.append(".B " + escape(command.synopsis))
            s.append(escape(command.abstract) + ".")
            if !command.discussion.isEmpty {
                s += [".RS", ".PP", ".nf"] + command.discussion.split(separator: "\n").map { escape(String($0)) }
                s += [".fi", ".RE"]
            }
            if !command.options.isEmpty {
                s.append(".RS")
                for option in command.options {
                    s += [".TP", self.option(option), escape(option.help)]
                }
                s.append(".RE")
            }
        }
        s.append(".SH GLOBAL OPTIONS")
        for option in GlobalOptions.all { s += [".TP", self.option(option), escape(option.help)] }
        s += [
            ".SH EXIT STATUS",
            escape(HelpText.exitStatus),
            ".SH ENVIRONMENT",
        ]
        let environment = [
            ("HOME", "the home folder whose browsers install and doctor mean"),
            ("PATH", "searched for the browsers' executables (install and doctor detect a browser by it)"),
            ("XDG_DATA_HOME", "where group containers and the install receipt go (default ~/.local/share)"),
            ("EXTENSION_BRIDGE_CONTAINER", "the group container folder itself, overriding --suite"),
            (
                "EXTENSION_BRIDGE_DETECT_ROOT",
                "look for browsers' executables, and the Debian package's files (its dpkg list), under this folder instead of / (tests)"
            ),
            (
                "DBUS_SESSION_BUS_ADDRESS",
                "the session bus secret reaches the Secret Service on (else $XDG_RUNTIME_DIR/bus); never autolaunched"
            ),
            ("EXTENSION_BRIDGE_SECRET_TOOL", "the secret-tool to run (default: the first on PATH)"),
            ("EXTENSION_BRIDGE_SECRET_TIMEOUT_MS", "how long secret waits for the Secret Service (default 30000)"),
        ]
        for (name, text) in environment { s += [".TP", ".B " + escape(name), escape(text)] }
        s += [
            ".SH FILES",
            ".TP", ".I " + escape("~/.local/share/extension-bridge/install-receipt.json"),
            escape("what install wrote, for uninstall"),
            ".TP", ".I " + escape("extension-bridge-host.allowed"),
            escape("beside the host: the callers it serves"),
            ".TP", ".I " + escape("/etc/chromium/native-messaging-hosts, /usr/lib/mozilla/native-messaging-hosts, …"),
            escape("the system manifest folders (--system); doctor lists every folder each browser reads"),
            ".SH SEE ALSO",
            ".BR chromium (1),",
            ".BR firefox (1)",
        ]
        return s.joined(separator: "\n")
    }

    static func option(_ option: OptionSpec) -> String {
        option.valueName.map { ".BI \"\(escape(option.name)) \" " + escape($0) } ?? ".B " + escape(option.name)
    }

    /// Text safe in roff: backslashes and dashes escaped, no line starting with a control character.
    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            default: out.append(character)
            }
        }
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }
}

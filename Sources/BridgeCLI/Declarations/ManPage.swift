import BridgeProtocol
import BridgeSystem
import BrowserSupport
import SharedSuite

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
        s += [".SH EXIT STATUS", escape(HelpText.exitStatus), ".SH ENVIRONMENT"]
        for (name, text) in environment { s += [".TP", ".B " + escape(name), escape(text)] }
        s.append(".SH FILES")
        for (path, text) in files { s += [".TP", ".I " + escape(path), escape(text)] }
        s.append(".SH EXAMPLES")
        for (command, text) in examples { s += [".TP", ".B " + escape(command), escape(text)] }
        s += [
            ".SH SEE ALSO",
            ".BR chromium (1),",
            ".BR firefox\\-esr (1),",
            ".BR secret\\-tool (1),",
            ".BR dpkg (1).",
            ".PP",
            escape(
                "The project's docs/INSTALLING.md (routes, browsers and their folders), docs/TROUBLESHOOTING.md "
                    + "(what doctor reports), docs/SUITE.md (the suite, queue and secrets), docs/PROTOCOL.md "
                    + "(the host's messages) and docs/SHIPPING.md (packages and keys)."),
        ]
        return s.joined(separator: "\n")
    }

    /// The variables the tool and the host read: the system's, then every one of ExtensionBridge's own
    /// (`EnvironmentVariable`, whose switch below makes a new one fail to compile until it is described).
    static var environment: [(name: String, text: String)] {
        [
            ("HOME", "the home folder whose browsers, suite and receipts install, doctor and the host mean"),
            (
                "PATH",
                "searched for the browsers' executables (install and doctor detect a browser by it), openssl and "
                    + "secret-tool"
            ),
            (
                "XDG_DATA_HOME",
                "where group containers, receipts and keys go when it is an absolute path (default ~/.local/share)"
            ),
            (
                "DBUS_SESSION_BUS_ADDRESS",
                "the session bus secret and getSecret reach the Secret Service on (else $XDG_RUNTIME_DIR/bus); never autolaunched"
            ),
            ("XDG_RUNTIME_DIR", "where the session bus is looked for when DBUS_SESSION_BUS_ADDRESS is unset"),
            ("SOURCE_DATE_EPOCH", "pack --deb: the time every date in the package is set to (default: now)"),
            (
                "DEBFULLNAME",
                "pack --deb: the name of the package's maintainer, with DEBEMAIL, when bridge.json names none "
                    + "(ExtensionBridge's own package always: it has no address of its own)"
            ),
            ("DEBEMAIL", "pack --deb: the maintainer's email address, with DEBFULLNAME"),
            (
                "TMPDIR",
                "run: where its private folder is made (/tmp when unset or too long for a socket's path); "
                    + "run refuses one that is not an absolute path to a folder (exit 73)"
            ),
            (
                "DISPLAY",
                "run: the X display the browser opens its window on (without it or WAYLAND_DISPLAY, --headless)"
            ),
            ("WAYLAND_DISPLAY", "run: the Wayland display the browser opens its window on"),
            (
                "XAUTHORITY",
                "run: the X cookie, passed to the browser; when unset, ~/.Xauthority of your own HOME (the "
                    + "browser's HOME is private)"
            ),
        ] + EnvironmentVariable.allCases.map { ($0.name, describe($0)) }
    }

    static func describe(_ variable: EnvironmentVariable) -> String {
        switch variable {
        case .allowedCallers: "the host: comma-separated callers allowed instead of the configuration's allow lines"
        case .container: "the group container folder itself, overriding --suite (host and tool)"
        case .detectRoot:
            "look for browsers' executables, and the Debian package's file list, under this folder (tests)"
        case .group: "the host: the group it serves, over the configuration's group"
        case .itemMaxBytes: "the most bytes of one queue item (host and tool)"
        case .log: "the host: error, warn (default), info or debug, over the configuration's log"
        case .maxRequestBytes: "the host: the inbound frame limit in bytes (default 64 MiB)"
        case .queueMaxBytes: "the most bytes the queue holds (host and tool)"
        case .queueMaxItems: "the most items the queue holds (host and tool)"
        case .secretTimeoutMilliseconds: "how long secret-tool may take, in milliseconds (default 30000)"
        case .secretTool: "the secret-tool to run instead of the first on PATH"
        case .source: "new and upgrade: ExtensionBridge's sources, when --package-path is not given"
        case .trace:
            "the host: the socket it reports each message and log line to; set by run in the browser it starts"
        case .watch: "poll: look every 250 ms instead of waiting on inotify (the host, queue watch)"
        case .writeTimeoutMilliseconds: "the host: how long one reply waits for a browser that stopped reading (ms)"
        }
    }

    /// The files the tool reads and writes, their paths made by the code that uses them.
    static var files: [(path: String, text: String)] {
        let home = "~"
        let none = Environment([:])
        let data = FileSystem.parentPath(Installer.defaultReceiptPath(home: home, environment: none))
        let container = Platform.groupContainersRoot(home: home, xdgDataHome: nil) + "/" + GroupContainer.defaultGroupID
        let host = HostConfiguration.fileName(forExecutable: "extension-bridge-host")
        return [
            (
                container,
                "the default group's container (--suite picks another; extension-bridge where prints it): "
                    + "suite.json, queue/, files/"
            ),
            (Installer.defaultReceiptPath(home: home, environment: none), "what install wrote, for uninstall"),
            (
                Installer.receiptsFolder(home: home, environment: none) + "/",
                "the receipt of each bridge made by new, by host name"
            ),
            (
                ExtensionKey.machineKeyPath(home: home, environment: none),
                "this machine's signing key (install --crx, pack): back it up, every later CRX must be signed with it"
            ),
            (data + "/extension", "the extension as scripts/install.sh copies it (install --crx packs it from there)"),
            (
                host,
                "beside the host (~/.local/bin/, or /usr/lib/extension-bridge/ from the Debian package): the callers "
                    + "it serves, its group and log level; written by install, or part of the package"
            ),
            (
                HostConfiguration.legacyAllowlistFileName,
                "beside the host: read only when there is no " + host + " (installs made before it)"
            ),
            (
                "~/.config/chromium/NativeMessagingHosts, ~/.mozilla/native-messaging-hosts, …",
                "the user manifest folders; --system: /etc/chromium/native-messaging-hosts, "
                    + "/usr/lib/mozilla/native-messaging-hosts, …; doctor lists every folder each browser reads"
            ),
        ]
    }

    static let examples: [(command: String, text: String)] = [
        ("extension-bridge enable", "turn the extension on (extensionEnabled = true); until then no page changes"),
        ("extension-bridge write vocabulary -dict blue blauw red rood", "the words pages get replaced"),
        (
            "extension-bridge queue drain --exec ./import.sh",
            "each saved item on import.sh's standard input, removed when it exits 0"
        ),
        ("extension-bridge doctor", "check every browser's manifests, the host, and the extension in each profile"),
        (
            "extension-bridge install --browser chromium --crx",
            "register the host with Chromium and install the extension there"
        ),
        (
            "extension-bridge new ReadLater --host-name com.example.readlater --group group.com.example.readlater",
            "a bridge of your app's own"
        ),
    ]

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

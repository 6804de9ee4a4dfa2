import BridgeProtocol
import BridgeSystem
import SharedSuite

/// Help texts: one overview, one page per verb.
enum Help {
    static let overview = """
        extension-bridge \(BridgeVersion.current): settings and queue of ExtensionBridge's shared suite.

        Usage: extension-bridge [--suite ID] [--json] COMMAND [ARGS]

        Suite (like `defaults`):
          read [KEY]                 the whole suite, or one value
          write KEY [-TYPE] VALUE    -bool -int -float -string -date -data -array -dict -json
          delete KEY                 remove a key
          export [FILE|-]            the suite document (stdout by default)
          import [FILE|-]            replace the suite from a document or an object of values
          enable | disable           set extensionEnabled
          repair                     move an unreadable suite file aside
          where                      print the group container folder

        Browsers:
          install [--browser NAME|all|detected] [--system] [--user-data-dir DIR]
                  [--host-name NAME] [--extension-id ID] [--extension-dir DIR] [--host-path PATH]
                  [--config bridge.json] [--log-level LEVEL] [--dry-run]   register the host with browsers
          uninstall [--browser …] [--user-data-dir DIR] [--config bridge.json]   remove exactly what install wrote
          doctor [--browser …] [--user-data-dir DIR] [--config bridge.json] [--all]   check and talk to the host

        Your own bridge:
          new NAME --host-name ID --group GROUP [--dir PATH] [--package-path PATH |
              --package-url URL --from VERSION] [--force] [--dry-run]   write a bridge project for your app

        Queue and files (what the extension saved):
          queue list | count | drain [--all]
          files list | read NAME | delete NAME

        Options:
          --suite ID   group id (default \(GroupContainer.defaultGroupID))
          --json       machine-readable output
          --help       help for a command: extension-bridge COMMAND --help
          --version    print the version

        Exit status: 0 ok, 64 usage, 65 bad data, 66 missing key or file, 69 a tool is unavailable,
        74 I/O, 75 lock timeout.
        The container is EXTENSION_BRIDGE_CONTAINER if set, else \(Platform.groupContainersRoot(home: "~", xdgDataHome: nil))/ID.
        """

    static let pages: [String: String] = [
        "read": """
        extension-bridge read [KEY] [--json]
          Prints the whole suite as JSON, or one value: plain text for scalars
          (strings bare, data as base64, dates as ISO 8601), JSON with --json.
          Exit 66 when KEY does not exist.
        """,
        "write": """
        extension-bridge write KEY [-TYPE] VALUE…
          VALUE alone is a string. Types:
            -bool true|false   -int N   -float X   -string S
            -date 2026-11-29T18:57:02Z   -data BASE64
            -array V1 V2…  (strings)   -dict K1 V1 K2 V2…  (strings)
            -json TEXT  (any JSON but null; {"$date":…} and {"$data":…} tags)
          Example: extension-bridge write vocabulary -dict blue blauw red rood
        """,
        "delete": "extension-bridge delete KEY\n  Removes KEY. Exit 66 when it does not exist.",
        "export":
            "extension-bridge export [FILE|-]\n  Writes the suite document ({formatVersion, values}) to FILE (atomically) or stdout.",
        "import": """
        extension-bridge import [FILE|-]
          Replaces every value with those in FILE (or stdin): a suite document
          as `export` writes it, or a plain object of values. Refuses a newer
          formatVersion.
        """,
        "enable":
            "extension-bridge enable\n  Sets extensionEnabled to true (and user_defaults_suite_enabled, if present).",
        "disable":
            "extension-bridge disable\n  Sets extensionEnabled to false (and user_defaults_suite_enabled, if present).",
        "repair": """
        extension-bridge repair
          Moves an unreadable suite.json aside to suite.json.corrupt-TIME, so the
          suite starts from defaults. A readable or newer-format file is left alone.
        """,
        "queue": """
        extension-bridge queue list | count | drain [--all] [--json]
          list   one line per waiting item (JSON lines with --json, without content)
          count  how many items wait
          drain  hands every item over on stdout (JSON lines with --json), then
                 removes it; skips items whose URL was already handed over in
                 this drain unless --all. Items of a newer format or unreadable
                 ones are kept and reported on stderr.
        """,
        "files": """
        extension-bridge files list | read NAME | delete NAME
          The group's shared files. Names may not contain '/' or NUL or start with '.'.
        """,
        "where": "extension-bridge where\n  Prints the group container folder.",
        "install": """
        extension-bridge install [--browser NAME[,NAME…]|all|detected] [--system] [--user-data-dir DIR]
                                 [--host-name NAME] [--extension-id ID] [--extension-dir DIR]
                                 [--host-path PATH] [--dry-run] [--json]
          Writes a host manifest for each browser (default: detected, the browsers whose
          profile folder exists) pointing at the host beside this binary (or --host-path),
          allowing the bundled extension's ids (from --extension-dir, default
          ../share/extension-bridge/extension, else ./extension) plus --extension-id, and
          writes the host's configuration beside the host (the allowed callers, the group
          of --suite, the level of --log-level). --user-data-dir DIR writes
          DIR/NativeMessagingHosts (a custom Chromium profile); --system the system folder.
          --config bridge.json installs a bridge made by `new` instead: its host name, ids
          and group; its built host (the project's .build/release, or --host-path) is
          copied to a folder of its own. A second run changes nothing. A receipt per
          bridge records every file for uninstall.
          Browsers: chrome chrome-beta chrome-dev chromium edge brave vivaldi firefox librewolf.
        """,
        "uninstall": """
        extension-bridge uninstall [--browser NAME…] [--user-data-dir DIR] [--json]
          Removes the files install wrote (all, or those of --browser / --user-data-dir),
          as its receipt lists them; a file changed since is left alone. --config
          bridge.json: the files of that bridge only.
        """,
        "doctor": """
        extension-bridge doctor [--browser NAME…] [--user-data-dir DIR] [--all] [--json]
          Checks every folder each browser reads: the manifest exists, is valid JSON, its
          name matches the file, its path is absolute and executable, it allows our
          extension, nothing shadows it; then launches the host as the browser would and
          does a hello round trip. Prints a table and the command that fixes each problem
          (--all also lists folders without a manifest). Exit 1 when anything is broken.
          Without --config or --host-name it checks the built-in bridge and every bridge
          installed with --config (by their receipts); with --config, that bridge only.
        """,
        "new": """
        extension-bridge new NAME --host-name ID --group GROUP [--dir PATH]
                             [--package-path PATH | --package-url URL --from VERSION] [--force] [--dry-run]
          Writes a bridge project for the app NAME (a Swift identifier) into ./NAME or --dir:
          a Swift package whose host runs the built-in actions plus the app's own (appInfo),
          with a test over real pipes; the bundled extension made the app's own (a fresh key
          and Chromium id, a Firefox id from the host name, the host name in its code, the
          app's name); bridge.json for install/uninstall/doctor --config; README, scripts,
          and a Safari/ handler. ExtensionBridge comes from --package-path (default: the
          installed copy, or the checkout this tool was built in), or --package-url.
          Host names: lowercase letters, digits, '_' and dots between them. An existing
          folder is refused unless --force (which keeps it as FOLDER.old-TIME). Nothing is
          half-written: the project appears in one rename. Needs openssl for the key.
        """,
    ]

    static func text(for verb: String) throws(CLIError) -> String {
        guard let page = pages[verb] else { throw .usage("no help for unknown command '\(verb)'") }
        return page
    }
}

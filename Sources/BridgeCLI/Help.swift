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

        Queue and files (what the extension saved):
          queue list | count | drain [--all]
          files list | read NAME | delete NAME

        Options:
          --suite ID   group id (default \(GroupContainer.defaultGroupID))
          --json       machine-readable output
          --help       help for a command: extension-bridge COMMAND --help
          --version    print the version

        Exit status: 0 ok, 64 usage, 65 bad data, 66 missing key or file, 74 I/O, 75 lock timeout.
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
    ]

    static func text(for verb: String) throws(CLIError) -> String {
        guard let page = pages[verb] else { throw .usage("no help for unknown command '\(verb)'") }
        return page
    }
}

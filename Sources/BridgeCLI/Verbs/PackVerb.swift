/// `extension-bridge pack`.
enum PackVerb: Verb {
    static let spec = CommandSpec(
        ["pack"], section: "Your own bridge", abstract: "write the release packages of the extension",
        discussion: """
            Writes into --out (default ./dist), one line per file: <name>-<version>.zip for the Chrome
            Web Store (the manifest without key, browser_specific_settings and background.scripts),
            <name>-<version>.xpi for Firefox (without key; with gecko.data_collection_permissions,
            {"required": ["none"]} when the manifest has none), and <name>-<version>.crx, that zip
            signed as CRX3 (its Chromium id is the signing key's). Tests, tools, benchmarks,
            package.json, README.md, extension-id.json and dotfiles stay out; a link, any
            file that is not a regular file, and a file holding a private key are refused. The
            same folder and key give the same bytes.
            --update-url BASE (https) also writes updates.xml (Chromium) and updates.json (Firefox)
            and puts BASE/updates.xml into the CRX's manifest as update_url and BASE/updates.json
            into the XPI's gecko.update_url. The key: --key PEM; else with --config the project's
            keys/extension-private-key.pem; else this machine's key (on Linux
            ~/.local/share/extension-bridge/keys/extension-bridge.pem), made on first use, which
            signs ExtensionBridge's own extension only (another needs --key); uninstall keeps a
            key pack signed with. A key file must be a regular file only its owner can read
            (chmod 600). The extension: the
            bridge's with --config, else --extension-dir, the installed copy, or ./extension.
            Needs openssl. --deb writes the Debian package instead (dpkg-deb, strip, md5sum,
            gzip): the static host and its configuration in /usr/lib/<host name>/ (the built-in
            bridge: /usr/lib/extension-bridge/), the system host manifests for every browser in the
            catalog, the extension installed for every user of Debian's chromium and firefox-esr,
            /etc/firefox-esr/<package>.js (a conffile), copyright and changelog (with --changelog FILE,
            the release's entries from FILE's "## [<version>]" section); with --config the
            app's name, version, maintainer and copyright from bridge.json, the host from the
            project's newer build or --host-path (refused unless static), without it
            extension-bridge itself with its man page and completions. A package name of the
            distribution's browsers (chromium, firefox-esr, …), ExtensionBridge's, or one this
            system knows as another maintainer's is refused, as is any control, copyright or
            changelog value that is not one line. Exit 64 usage, 65 a file or
            value breaks a rule, 66 no extension, key or host, 69 no openssl or Debian tool, 74 I/O.
            """,
        options: [
            BrowserOptions.config, BrowserOptions.extensionDirectory, PackVerbOptions.out, PackVerbOptions.updateURL,
            PackVerbOptions.key, PackVerbOptions.deb, PackVerbOptions.hostPath, PackVerbOptions.changelog,
            BrowserOptions.extensionID,
        ])

    static func run(_ invocation: Invocation, context: CLIContext) throws(CLIError) -> Int32 {
        try PackCommand(context: context, args: invocation).run()
        return 0
    }
}

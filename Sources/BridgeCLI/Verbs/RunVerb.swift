import BridgeRun
import BridgeSystem
import BrowserSupport

/// `extension-bridge run [--config FILE] [--browser chromium|firefox] [--url URL] [--verbose] [--headless]`.
enum RunVerb: Verb {
    static let browser = OptionSpec(
        "--browser", value: "NAME", help: "chromium (the default when it is installed) or firefox",
        completion: .words(RunBrowser.allCases.map(\.rawValue)))
    static let url = OptionSpec(
        "--url", value: "URL", help: "the page to open once the extension is loaded (a URL, or a file's path)")
    static let verbose = OptionSpec(
        "--verbose",
        help: "also each message's JSON (secret values hidden), every console line, hosts starting and ending")
    static let headless = OptionSpec("--headless", help: "no browser window: the lines only (scripts, tests)")

    static let spec = CommandSpec(
        ["run"], section: "Your own bridge",
        abstract: "try the bridge in a throwaway browser and watch what crosses it",
        discussion: """
            Builds the host if it is missing or older than its sources (the build a project's
            scripts/build.sh makes, or ExtensionBridge's scripts/install.sh), then starts the browser
            with a throwaway profile in a private folder (mode 0700): the extension loaded unpacked,
            the host registered for that profile only; nothing your own profiles read is touched. Prints one line per native message (time, direction, caller,
            action, id, status, bytes, milliseconds), the host's log lines, and the extension's uncaught
            and console errors, tagged background, popup or content. When a file of the extension
            changes, the extension and the open web pages are reloaded; when the host's sources change,
            the host is rebuilt and the next message starts the new one (a failed build is shown and the
            old host keeps serving). Ctrl-C, SIGTERM or closing the browser stops everything it started
            and removes the folder. Without --config it runs ExtensionBridge's own bridge from the
            checkout this tool was built in (or EXTENSION_BRIDGE_SOURCE). Chromium is driven through its
            DevTools pipe, Firefox through its remote debugging protocol on a socket inside the folder
            (no TCP port). Exit 0 when stopped or the browser closed, 1 when the browser ended with a
            failure, 64 usage, 65 a bad bridge.json or an extension Chromium did not load (its reason is
            printed), 66 no ExtensionBridge source, 69 no browser,
            display or swift, or a browser that did not start, 70 the first build failed, 73 the folder
            (or TMPDIR, when it is not an absolute path to a folder), 77 a project, build script or
            built host another user can write.
            """,
        options: [BrowserOptions.config, browser, url, verbose, headless])

    static func run(_ invocation: Invocation, context: CLIContext) throws(CLIError) -> Int32 {
        let cwd = FileSystem.currentDirectory() ?? "."
        func absolute(_ path: String) -> String { path.hasPrefix("/") ? path : cwd + "/" + path }
        let environment = Environment.processVariables()
        let browser: RunBrowser
        if let name = invocation[RunVerb.browser] {
            guard let chosen = RunBrowser(rawValue: name) else {
                throw .usage("--browser takes chromium or firefox, not '\(name)'", verb: "run")
            }
            browser = chosen
        } else {
            let found = RunBrowser.allCases.first { $0.executable(searchPath: environment["PATH"]) != nil }
            browser = found ?? .chromium
        }
        var url = invocation[RunVerb.url]
        if let given = url, !given.contains(":") {
            guard Platform.exists(absolute(given)) else {
                throw .usage("--url takes a URL (http://…, file://…) or an existing file, not '\(given)'", verb: "run")
            }
            url = "file://" + absolute(given)
        }
        let project: RunProject
        if let config = invocation[BrowserOptions.config] {
            do {
                // The project's bridge.json, extension and keys, held to install's rule: run registers
                // the host for the extension it names and loads that extension.
                let description = try BridgeDescription.loadTrusted(absolute(config))
                project = RunProject.generated(description, path: absolute(config))
            } catch {
                if case .untrustedProject = error { throw CLIError(.noPermission, error.description) }
                throw CLIError(.data, error.description)
            }
        } else {
            let source = try SourceLocation.locate(given: nil, context: context, absolute: absolute)
            do {
                project = try RunProject.builtIn(source: source)
            } catch {
                throw CLIError(.data, error.description)
            }
        }
        let options = RunSession.Options(
            browser: browser, url: url, verbose: invocation.has(RunVerb.verbose),
            headless: invocation.has(RunVerb.headless))
        let session = RunSession(project: project, options: options, environment: environment) { line in
            try? context.print(line)
        }
        do {
            return try session.run()
        } catch {
            throw CLIError(CLIError.Kind(rawValue: error.exitStatus) ?? .unavailable, error.description)
        }
    }
}

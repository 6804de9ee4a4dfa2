import BridgeJSON
import BridgeProtocol
import BrowserSupport

/// The files of a generated bridge project, as pure functions of the answers,
/// the key pair and the bundled extension: no I/O here.
public enum ProjectTemplate {
    /// Every file `new` writes, in a stable order.
    /// - Parameters:
    ///   - spec: the checked answers.
    ///   - key: the extension's fresh key pair.
    ///   - extensionFiles: the bundled extension's files (relative path, bytes).
    ///   - carried: the ExtensionBridge libraries the project carries (`ExtensionBridge/`), read from the
    ///     same source; their version is recorded in `.extension-bridge/core.json` with the fingerprint
    ///     of every core file.
    public static func files(
        spec: ProjectSpec, key: ExtensionKey, extensionFiles: [GeneratedFile], carried: CarriedSource
    ) throws(GeneratorError) -> [GeneratedFile] {
        // compat/ is the Safari shim for imported extensions only (`files(…, safari:)`), with its tests.
        let bundled = extensionFiles.filter { !SafariImport.isCompat($0.path) }
        let own = try ExtensionCustomizer.customize(bundled, spec: spec, key: key)
        return project(spec: spec, key: key, extension: own, safariImport: false, carried: carried)
    }

    /// Every file `new --from-safari` writes: the project around the imported extension
    /// (`SafariImport.extensionFiles`), and the report of what changed. The author's files and the
    /// rewritten manifest are the app's; only the files of `bridge-compat/` are core.
    public static func files(
        spec: ProjectSpec, key: ExtensionKey, extensionFiles: [GeneratedFile], carried: CarriedSource,
        safari: SafariImport
    ) throws(GeneratorError) -> (files: [GeneratedFile], report: SafariImport.Report) {
        let spec = safari.projectSpec(spec)
        let imported = try safari.extensionFiles(spec: spec, key: key, bundled: extensionFiles)
        let files = project(
            spec: spec, key: key, extension: imported.extensionFiles, safariImport: true, carried: carried)
        return (imported.completing(files, spec: spec), imported.report)
    }

    /// The core files of an imported project as `upgrade` regenerates them: the project's and the
    /// `bridge-compat/` files (the author's extension is never regenerated).
    static func safariImportCore(
        spec: ProjectSpec, key: ExtensionKey, extensionFiles: [GeneratedFile], carried: CarriedSource
    ) throws(GeneratorError) -> [GeneratedFile] {
        let compat = try SafariImport.compatFiles(hostName: spec.hostName, bundled: extensionFiles)
        return project(spec: spec, key: key, extension: compat, safariImport: true, carried: carried)
    }

    /// The project around `own`, the extension's files (relative to `extension/`).
    static func project(
        spec: ProjectSpec, key: ExtensionKey, extension own: [GeneratedFile], safariImport: Bool,
        carried: CarriedSource
    ) -> [GeneratedFile] {
        var description = BridgeDescription(
            name: spec.name, hostName: spec.hostName, group: spec.group, hostProduct: spec.hostProduct,
            version: spec.version, extensionFolder: "extension", chromiumID: key.chromiumID, firefoxID: spec.firefoxID)
        description.maintainer = spec.maintainer
        description.features = spec.features
        var out: [GeneratedFile] = [
            GeneratedFile("Package.swift", text: packageSwift(spec)),
            GeneratedFile("Sources/\(spec.actionsTarget)/AppConfiguration.swift", text: appConfiguration(spec)),
            GeneratedFile("Sources/\(spec.actionsTarget)/AppInfoAction.swift", text: appInfoAction(spec)),
            GeneratedFile("Sources/\(spec.hostProduct)/main.swift", text: hostMain(spec)),
            GeneratedFile("Sources/\(spec.safariTarget)/SafariWebExtensionHandler.swift", text: safariHandler(spec)),
            GeneratedFile("Tests/\(spec.name)HostTests/AppInfoTests.swift", text: hostTests(spec)),
            GeneratedFile("Tests/\(spec.name)HostTests/HostProcess.swift", text: hostProcess()),
        ]
        out += appFiles(spec)
        out += [
            GeneratedFile("bridge.json", JSONWriter.prettyBytes(description.json)),
            GeneratedFile(
                "README.md", text: readme(spec, chromiumID: key.chromiumID, safariImport: safariImport)),
            GeneratedFile("scripts/build.sh", text: buildScript(spec), permissions: 0o755),
            GeneratedFile("scripts/install.sh", text: installScript(spec), permissions: 0o755),
            GeneratedFile("scripts/test.sh", text: testScript(spec, safariImport: safariImport), permissions: 0o755),
            GeneratedFile("scripts/package-deb.sh", text: packageScript(spec), permissions: 0o755),
            GeneratedFile("Safari/README.md", text: safariReadme(spec)),
            GeneratedFile("keys/README.md", text: keysReadme(spec, chromiumID: key.chromiumID)),
            GeneratedFile("keys/extension-private-key.pem", key.privateKeyPEM, permissions: 0o600),
            GeneratedFile(
                ".gitignore",
                text:
                    ".build/\n.swiftpm/\ndist/\n# The extension's private key: keep it, do not publish it (keys/README.md).\nkeys/*.pem\n"
            ),
        ]
        if case .carried = spec.dependency { out += carried.files }
        out += own.map { GeneratedFile("extension/" + $0.path, $0.bytes, permissions: $0.permissions) }
        let record = CoreRecord(
            version: carried.version, dependency: spec.dependency,
            coreFiles: ProjectOwnership.coreFiles(out, safariImport: safariImport), safariImport: safariImport)
        out.append(GeneratedFile(CoreRecord.path, JSONWriter.prettyBytes(record.json)))
        return out
    }

    // MARK: Swift package

    static func packageSwift(_ spec: ProjectSpec) -> String {
        // Every value below is a Swift string literal made by `swiftLiteral`,
        // whatever `validate` already checked: nothing from an answer is code.
        let dependency: String
        let about: String
        let packageName: String
        switch spec.dependency {
        case .carried:
            // A path relative to the project: the same on every machine the project is cloned to.
            dependency = ".package(path: \(swiftLiteral(CarriedSource.folder)))"
            about = "ExtensionBridge's libraries, carried in this project (ExtensionBridge/README.md)"
            packageName = swiftLiteral(CarriedSource.folder)
        case .url(let url, let exact):
            // Pinned: a newer release changes the project only through `extension-bridge upgrade`.
            dependency = ".package(url: \(swiftLiteral(url)), exact: \(swiftLiteral(exact)))"
            about = "ExtensionBridge, published, pinned to one version"
            packageName = swiftLiteral(spec.packageIdentity ?? "extension-bridge")
        }
        func bridge(_ product: String) -> String {
            ".product(name: \(swiftLiteral(product)), package: \(packageName))"
        }
        let name = swiftLiteral(spec.name)
        let actions = swiftLiteral(spec.actionsTarget)
        let app = swiftLiteral(spec.appTarget)
        let safari = swiftLiteral(spec.safariTarget)
        let host = swiftLiteral(spec.hostProduct)
        let appProduct = swiftLiteral(spec.appProduct)
        return """
            // swift-tools-version:6.0
            // \(spec.name): a native-messaging bridge generated by `extension-bridge new`.
            import PackageDescription

            let package = Package(
                name: \(name),
                products: [
                    // The app's own host actions (appInfo, and yours): the host and the Safari handler serve them.
                    .library(name: \(actions), targets: [\(actions)]),
                    // The app's side of the shared suite: turn the extension on, write its settings, import
                    // what it saved. Link it into your app.
                    .library(name: \(app), targets: [\(app)]),
                    // The Safari Web Extension handler: link it into the extension target Xcode made
                    // (Safari/README.md). Its code compiles only where SafariServices exists.
                    .library(name: \(safari), targets: [\(safari)]),
                    // The native-messaging host the browsers start (scripts/build.sh builds it static).
                    .executable(name: \(host), targets: [\(host)]),
                    // A command line standing in for your app, on the same library.
                    .executable(name: \(appProduct), targets: [\(appProduct)]),
                ],
                dependencies: [
                    // \(about);
                    // `extension-bridge upgrade` moves it to a newer version.
                    \(dependency)
                ],
                targets: [
                    .target(
                        name: \(actions),
                        dependencies: [\(bridge("BridgeHost"))]),
                    .target(
                        name: \(app),
                        dependencies: [\(actions), \(bridge("SharedSuite"))]),
                    .target(
                        name: \(safari),
                        dependencies: [\(actions), \(bridge("BridgeHost")), \(bridge("BridgeFoundation"))]),
                    // The host: main.swift only.
                    .executableTarget(
                        name: \(host),
                        dependencies: [\(actions), \(bridge("BridgeHost"))]),
                    .executableTarget(name: \(appProduct), dependencies: [\(app)]),
                    // Drives the built host over real pipes, as a browser does.
                    .testTarget(name: \(swiftLiteral(spec.name + "HostTests")), dependencies: [\(host)]),
                    // The app's side over a real group folder.
                    .testTarget(
                        name: \(swiftLiteral(spec.appTarget + "Tests")),
                        dependencies: [\(app), \(bridge("SharedSuite"))]),
                ],
                swiftLanguageModes: [.v6]
            )

            """
    }

    static func appConfiguration(_ spec: ProjectSpec) -> String {
        """
        /// What \(spec.name)'s bridge is: written by `extension-bridge new`, the same
        /// values as bridge.json.
        public enum AppConfiguration {
            public static let name = \(swiftLiteral(spec.name))
            public static let hostName = \(swiftLiteral(spec.hostName))
            public static let group = \(swiftLiteral(spec.group))
            public static let version = \(swiftLiteral(spec.version))
        }

        """
    }

    static func appInfoAction(_ spec: ProjectSpec) -> String {
        """
        import BridgeHost

        /// `appInfo` → `{status: "success", name, hostName, group, version}`: who this
        /// bridge is. The popup shows it. An example of an app's own action: add yours
        /// beside it and register them in the host's main.swift.
        public struct AppInfoAction: BridgeAction {
            public let name = "appInfo"
            /// A read: the extension may ask again after a lost connection (`hello` lists it).
            public let resendSafe = true

            public init() {}

            public func perform(_ request: BridgeRequest, in context: ActionContext) -> BridgeReply {
                .success([
                    "name": .string(AppConfiguration.name), "hostName": .string(AppConfiguration.hostName),
                    // The group this host serves: bridge.json's, as `install --config` configured it.
                    "group": .string(context.groupID), "version": .string(AppConfiguration.version),
                ])
            }
        }

        """
    }

    static func hostMain(_ spec: ProjectSpec) -> String {
        """
        import BridgeHost
        import BridgeSystem
        import \(spec.actionsTarget)

        // \(spec.name)'s native-messaging host: the built-in actions plus the app's own.
        // The extension's "Transform selection" asks `transform`; to apply your app's rules
        // instead of the vocabulary, add `TransformAction { text, context in … }` after
        // BuiltInActions.all (a later action with the same name replaces the built-in one).
        // The Safari handler (Sources/\(spec.safariTarget)) serves the same list: change both.
        // `project`: its --help and a refused caller's reply name this project's commands.
        // A global, so what the program builds lives until exit, unfreed.
        let program = HostProgram(
            configuration: HostProgram.Configuration(
                name: \(swiftLiteral(spec.hostProduct)), defaultGroupID: AppConfiguration.group,
                app: AppIdentity(name: AppConfiguration.name, version: AppConfiguration.version),
                project: AppConfiguration.name),
            actions: BuiltInActions.all + [AppInfoAction()])
        Platform.exit(program.run(arguments: CommandLine.arguments))

        """
    }

    static func hostTests(_ spec: ProjectSpec) -> String {
        hostTestHarness(spec) + hostTestCases(spec)
    }

    /// The generated host test's suite up to its tests: the host started on real pipes, frames read back.
    static func hostTestHarness(_ spec: ProjectSpec) -> String {
        """
        import Foundation
        import Testing

        /// The built host, started as a browser starts it: the caller's origin as its
        /// argument, framed JSON on real pipes, a private group container.
        @Suite struct AppInfoTests {
            let caller = "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"

            /// `HOST_BINARY`, else this package's debug build.
            var hostPath: String {
                if let path = ProcessInfo.processInfo.environment["HOST_BINARY"] { return path }
                let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                    .deletingLastPathComponent()
                return package.appendingPathComponent(".build/debug/\(spec.hostProduct)").path
            }

            func exchange(_ requests: [[String: Any]]) throws -> [[String: Any]] {
                let container = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
                defer { try? FileManager.default.removeItem(at: container) }
                try FileManager.default.createDirectory(at: container, withIntermediateDirectories: true)
                let process = Process()
                process.executableURL = URL(fileURLWithPath: hostPath)
                process.arguments = [caller]
                process.environment = [
                    "EXTENSION_BRIDGE_ALLOWED_CALLERS": caller, "EXTENSION_BRIDGE_CONTAINER": container.path,
                    "HOME": container.path,
                ]
                let input = Pipe()
                let output = Pipe()
                process.standardInput = input
                process.standardOutput = output
                let ended = try startHost(process)
                for request in requests {
                    let body = try JSONSerialization.data(withJSONObject: request)
                    var length = UInt32(body.count)
                    try input.fileHandleForWriting.write(contentsOf: Data(bytes: &length, count: 4) + body)
                }
                try input.fileHandleForWriting.close()
                let bytes = output.fileHandleForReading.readDataToEndOfFile()
                try waitForHost(process, ended)
                #expect(process.terminationStatus == 0)
                var replies: [[String: Any]] = []
                var offset = 0
                while offset + 4 <= bytes.count {
                    let length = bytes.subdata(in: offset..<(offset + 4)).withUnsafeBytes {
                        Int($0.loadUnaligned(as: UInt32.self))
                    }
                    let body = bytes.subdata(in: (offset + 4)..<(offset + 4 + length))
                    replies.append(try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any]))
                    offset += 4 + length
                }
                #expect(offset == bytes.count, "stdout holds whole frames and nothing else")
                return replies
            }


        """
    }

    /// The generated host test's tests, and the end of its suite.
    static func hostTestCases(_ spec: ProjectSpec) -> String {
        """
            @Test func appInfo_answersFromTheConfiguration_andHelloListsIt() throws {
                let replies = try exchange([["action": "hello", "id": 1], ["action": "appInfo", "id": 2]])
                #expect(replies.count == 2)
                #expect((replies[0]["actions"] as? [String])?.contains("appInfo") == true)
                #expect(replies[1]["status"] as? String == "success")
                #expect(replies[1]["name"] as? String == \(swiftLiteral(spec.name)))
                #expect(replies[1]["hostName"] as? String == \(swiftLiteral(spec.hostName)))
                #expect(replies[1]["group"] as? String == \(swiftLiteral(spec.group)))
                #expect(replies[1]["version"] as? String == \(swiftLiteral(spec.version)))
                #expect(replies[1]["id"] as? Int == 2)
                // The host speaks as the app, not as ExtensionBridge.
                #expect(replies[0]["name"] as? String == \(swiftLiteral(spec.name)))
                #expect(replies[0]["hostVersion"] as? String == \(swiftLiteral(spec.version)))
            }

            @Test func version_namesTheAppAndItsVersion() throws {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: hostPath)
                process.arguments = ["--version"]
                let output = Pipe()
                process.standardOutput = output
                let ended = try startHost(process)
                let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                try waitForHost(process, ended)
                #expect(text.hasPrefix(\(swiftLiteral(spec.hostProduct + " " + spec.version + " (" + spec.name + ", built on ExtensionBridge "))), "\\(text)")
            }
        }

        """
    }

    static func hostProcess() -> String {
        """
        import Foundation

        /// The host did not end within 60 s (it was killed).
        struct HostDidNotEnd: Error {}

        /// Starts `process`; the semaphore is signalled when it ends (a termination handler set
        /// before `run()` cannot miss a host that ends at once).
        func startHost(_ process: Process) throws -> DispatchSemaphore {
            let ended = DispatchSemaphore(value: 0)
            process.terminationHandler = { _ in ended.signal() }
            try process.run()
            return ended
        }

        /// Waits for `process` to end, 60 s at most: then it is killed and the test fails, where
        /// waitUntilExit would hang the run (it did when Foundation could not watch for the end:
        /// no loopback interface for its run loop's socket pair).
        func waitForHost(_ process: Process, _ ended: DispatchSemaphore) throws {
            guard ended.wait(timeout: .now() + 60) == .success else {
                process.terminate()
                throw HostDidNotEnd()
            }
        }

        """
    }

    // MARK: Scripts and docs

    /// The one build line of the project, for the host as browsers run it: release, static.
    static func buildLine(_ spec: ProjectSpec) -> String {
        HostBuild.projectCommand(product: spec.hostProduct)
    }

    static func buildScript(_ spec: ProjectSpec) -> String {
        """
        #!/usr/bin/env bash
        # Builds \(spec.name)'s host as the browsers run it, release and static (no Swift runtime needed
        # where it runs), and prints its path. The project's one build line:
        #   \(buildLine(spec))
        # scripts/install.sh and scripts/package-deb.sh build through it.
        #
        # The static link prints one warning of glibc's: "Using 'dlopen' in statically linked
        # applications requires at runtime the shared libraries from the glibc version used for
        # linking". The call is the Swift runtime's (libswiftCore.a, LibPrespecialized.cpp): it looks
        # for a library of prespecialized metadata only when the debugging variable
        # SWIFT_DEBUG_LIB_PRESPECIALIZED_PATH names one. Without it the host opens no shared library
        # (strace shows none). That line is replaced with a note saying so; every other line is shown.
        set -euo pipefail
        cd "$(dirname "$0")/.."
        note="\(HostBuild.dlopenNote)"
        \(buildLine(spec)) 2>&1 | sed "s|^.*\(HostBuild.dlopenWarning).*\\$|${note}|" >&2
        echo "$(swift build -c release -Xswiftc -static-executable --show-bin-path)/\(spec.hostProduct)"

        """
    }

    /// What the install and packaging scripts say when the tool is missing: building needs no ExtensionBridge.
    static func needsTool(_ script: String) -> String {
        """
        command -v extension-bridge >/dev/null 2>&1 || {
            echo "\(script): the extension-bridge tool is not on PATH. Building and testing this project need no" >&2
            echo "ExtensionBridge (scripts/test.sh, scripts/build.sh: Swift, and node for the extension's tests);" >&2
            echo "installing and packaging need the tool: install ExtensionBridge (its scripts/install.sh puts" >&2
            echo "extension-bridge in ~/.local/bin), then run this again." >&2
            exit 69
        }
        """
    }

    static func installScript(_ spec: ProjectSpec) -> String {
        """
        #!/usr/bin/env bash
        # Builds \(spec.name)'s host (scripts/build.sh) and registers it with your browsers:
        # `extension-bridge install --config bridge.json` copies the host to a stable folder, writes the
        # browsers' host manifests and the host's configuration. Arguments go to `extension-bridge
        # install`: --browser chromium; --crx, and Chromium-family browsers install the extension at
        # their next start (signed with keys/extension-private-key.pem: the same id); --extension-id ID.
        set -euo pipefail
        cd "$(dirname "$0")/.."
        \(needsTool("install.sh"))
        host="$(scripts/build.sh)"
        extension-bridge install --config bridge.json --host-path "$host" "$@"

        """
    }

    static func packageScript(_ spec: ProjectSpec) -> String {
        """
        #!/usr/bin/env bash
        # Builds \(spec.name)'s Debian package: scripts/package-deb.sh [OUTPUT_DIR] (default dist/).
        # The host is built static (scripts/build.sh); `extension-bridge pack --deb --config bridge.json`
        # (the same code that packages ExtensionBridge itself) writes \(spec.debianName)_<version>_<arch>.deb:
        # the host and its configuration in /usr/lib/\(spec.hostName)/, the system host manifests of
        # every browser, and the extension for every user of Debian's chromium and firefox-esr. Name,
        # version, maintainer and copyright come from bridge.json. Prints the .deb's path.
        set -euo pipefail
        cd "$(dirname "$0")/.."
        \(needsTool("package-deb.sh"))
        host="$(scripts/build.sh)"
        extension-bridge pack --deb --config bridge.json --out "${1:-dist}" --host-path "$host" | sed -n 's/^wrote //p'

        """
    }

    static func testScript(_ spec: ProjectSpec, safariImport: Bool = false) -> String {
        // An imported extension has node tests only if its author wrote some.
        let node =
            safariImport
            ? "if [ -d extension/test ]; then node --test extension/test/; fi" : "node --test extension/test/"
        return """
            #!/usr/bin/env bash
            # Every test of \(spec.name): the host over real pipes, the app's side over a real suite, and
            # the extension's node tests. Needs Swift and node, no ExtensionBridge: ExtensionBridge/ is carried here.
            set -euo pipefail
            cd "$(dirname "$0")/.."
            swift build --build-tests
            HOST_BINARY="$(swift build --show-bin-path)/\(spec.hostProduct)" swift test --skip-build
            \(node)

            """
    }

    static func readme(_ spec: ProjectSpec, chromiumID: String, safariImport: Bool = false) -> String {
        let extensionIs =
            safariImport
            ? """
            `extension/` is your Safari Web Extension, imported with
            `--from-safari`: your files byte for byte, `manifest.json` adapted, and
            ExtensionBridge's shim in `extension/bridge-compat/`; the host answers your code's
            native messages.
            """
            : "Its popup shows the host's `appInfo` answer."
        return """
            # \(spec.name)

            A native-messaging bridge between \(spec.name)'s browser extension and its
            Swift host, generated by `extension-bridge new` (ExtensionBridge): the Safari
            Web Extension model in Chromium and Firefox. \(extensionIs)

            ## Build and test: no ExtensionBridge needed

            ```sh
            scripts/test.sh    # builds everything and runs every test: the host over real pipes,
                               # the app's side over a real suite, the extension's node tests
            scripts/build.sh   # the host as browsers run it (release, static); prints its path
            ```

            The project carries the ExtensionBridge libraries it builds on in
            `ExtensionBridge/`, so a clone builds and tests offline on any machine with a
            Swift toolchain (and node, for the extension's tests). The host's one build line is
            `\(buildLine(spec))`.

            \(readmeInstall(spec))
            \(readmeWalk(spec, safariImport: safariImport))
            \(readmeCode(spec, chromiumID: chromiumID, safariImport: safariImport))
            """
    }

    static func readmeInstall(_ spec: ProjectSpec) -> String {
        """
        ## Install: the host, then the extension

        Installing needs the `extension-bridge` tool (ExtensionBridge's `scripts/install.sh`
        puts it in `~/.local/bin`).

        ```sh
        scripts/install.sh                        # build the host, then extension-bridge install --config bridge.json
        extension-bridge doctor --config bridge.json   # check it, per browser, with the fix for each problem
        ```

        The extension, for good (no Developer mode, no temporary add-on):

        | route | Chromium | Firefox ESR |
        |---|---|---|
        | `scripts/package-deb.sh`, then `sudo apt install ./dist/\(spec.debianName)_\(spec.version)_<arch>.deb` | every user of Debian's chromium, at its next start | every user of Debian's firefox-esr, at its next start, with access to websites |
        | `scripts/install.sh --crx` (you, no root) | Chromium-family browsers at their next start, signed with `keys/extension-private-key.pem` (the same id) | only a Mozilla-signed add-on installs per user: `extension-bridge pack --config bridge.json` writes the `.xpi` to sign at addons.mozilla.org |

        The Debian package also installs the host, for every user (`/usr/lib/\(spec.hostName)/`).
        A clone has no `keys/extension-private-key.pem` (`.gitignore` keeps it out): copy it
        from whoever made the project, or the CRX gets another id.

        For development, `extension-bridge run --config bridge.json` builds the host when its
        sources changed, starts a throwaway Chromium or Firefox profile with the extension and the
        host (registered for that profile only) and prints every native message and error; an edit
        reloads the extension or rebuilds the host, and Ctrl-C removes everything it started and
        wrote. Or load it by hand: in Chromium `chrome://extensions`, Developer mode, "Load
        unpacked", this project's `extension/` (the card then shows "'background.scripts' requires
        manifest version of 2 or lower": harmless); in Firefox `about:debugging`, "Load Temporary
        Add-on…", `extension/manifest.json`: a temporary add-on is gone when Firefox restarts. The unpacked ids are the ones below.

        """
    }

    /// "From your app to the page": what the app target does, walked through with the features the
    /// extension has.
    static func readmeWalk(_ spec: ProjectSpec, safariImport: Bool) -> String {
        let app = "swift run \(spec.appProduct)"
        let vocabulary = !safariImport && spec.features.contains(.vocabulary)
        let saving = !safariImport && spec.features.contains(.saving)
        let importedOn =
            "Your extension's code asks the host (seed 002's `request:enabled_status`, or `getSettings`), "
            + "which now answers that it is on; `\(app) off` turns it off."
        var steps = [
            vocabulary
                ? """
                ```sh
                \(app) vocabulary blue=blauw   # writes the words to replace, and turns the extension on
                ```

                Open a page that says "blue" (or reload it): it says "blauw". A fresh group is off: until
                your app turns the extension on, it changes no page. `\(app) off` turns it off again.
                """
                : """
                ```sh
                \(app) on   # turns the extension on; a fresh group is off
                ```

                \(safariImport ? importedOn : "`\(app) off` turns it off again.")
                """
        ]
        if saving {
            steps.append(
                """
                Save the page (the popup's "Save this page", or Alt+Shift+S): the host queues it in the
                group. Then your app takes it:

                ```sh
                \(app) import   # drains what the extension saved into the app's own list, each URL once
                \(app) list
                ```
                """)
        }
        return """
            ## From your app to the page

            Your app and the extension meet in the App Group `\(spec.group)` (ExtensionBridge's
            SharedSuite: a folder per group with the settings, a queue and shared files).
            `Sources/\(spec.appTarget)` is your app's side, a library to link into your app:
            `AppSuite` turns the extension on and writes its settings, `PendingImporter` drains what
            the extension saved into `SavedItemStore`, the app's own list (replace it with yours).
            `\(spec.appProduct)` is a command line around it. With the host installed and the
            extension loaded:

            \(steps.joined(separator: "\n\n"))

            """
    }

    static func readmeCode(_ spec: ProjectSpec, chromiumID: String, safariImport: Bool) -> String {
        let callingActions =
            safariImport
            ? "your background calls one with `browser.runtime.sendNativeMessage({action: …})`."
            : """
            to call one from the extension,
              declare it in `extension/app/app.js` (`actions`: who may call it) and send
              `{type: "appAction", action, payload}` (ExtensionBridge's docs/GENERATOR.md).
            """
        return """
            ## Your code

            | what | value |
            |---|---|
            | host name | `\(spec.hostName)` |
            | host executable | `\(spec.hostProduct)` |
            | group (the shared suite) | `\(spec.group)` |
            | Chromium extension id | `\(chromiumID)` (from the key in `extension/manifest.json`) |
            | Firefox add-on id | `\(spec.firefoxID)` |

            - `bridge.json` describes the bridge; `extension-bridge install|uninstall|doctor|pack
              --config bridge.json` act on this bridge and no other.
            - Your own actions: beside `Sources/\(spec.actionsTarget)/AppInfoAction.swift`, registered
              in `Sources/\(spec.hostProduct)/main.swift` and in the Safari handler; \(callingActions)
            - Your own transform (the extension's "Transform selection with …"): register
              `TransformAction { text, context in … }` after `BuiltInActions.all` in main.swift;
              it replaces the built-in rule (the vocabulary).
            - The products, for Xcode or another package: `\(spec.actionsTarget)`, `\(spec.appTarget)`
              and `\(spec.safariTarget)` (libraries), `\(spec.hostProduct)` and `\(spec.appProduct)`
              (executables). `Safari/README.md`: the Safari handler (untested on Linux).
            - `keys/`: the extension's private key (keys/README.md).

            ## Moving to a newer ExtensionBridge

            `ExtensionBridge/` holds one version of ExtensionBridge's libraries;
            `.extension-bridge/core.json` records which, and the fingerprint of every file
            ExtensionBridge owns here (`ExtensionBridge/`, the extension outside `extension/app/`,
            `Package.swift`, `scripts/`, `Safari/README.md`). Commit both. With a newer
            `extension-bridge` installed:

            ```sh
            extension-bridge upgrade --dry-run   # what would be added, replaced, removed, kept
            extension-bridge upgrade             # then scripts/test.sh, and commit
            ```

            It keeps the key and ids, `bridge.json`, `keys/`, `extension/app/`, your Swift and
            every file you added. It refuses while you have edited a core file (it names each);
            `--force` keeps your copy beside it as `FILE.orig`. Put your changes in
            `extension/app/` and your own files, and upgrades stay automatic.

            """
    }

    static func keysReadme(_ spec: ProjectSpec, chromiumID: String) -> String {
        """
        # The extension's key

        `extension-bridge new` made a fresh 2048-bit RSA key pair for \(spec.name)'s
        extension. The public half is the `key` in `extension/manifest.json`: it fixes
        the Chromium extension id (`\(chromiumID)`), which the host manifests name in
        `allowed_origins`.

        `extension-private-key.pem` is the private half. It never goes into
        `extension/`: it signs the `.crx` that keeps the same id
        (`extension-bridge pack --config bridge.json` writes it into `dist/`, with the
        Chrome Web Store zip and the Firefox XPI). pack refuses it unless only you can
        read it (`chmod 600 keys/extension-private-key.pem`).
        Keep it safe and out of public repositories (`.gitignore` lists it); anyone with
        it can publish an extension that your host will serve.

        """
    }

    static func safariHandler(_ spec: ProjectSpec) -> String {
        """
        // \(spec.name)'s Safari Web Extension handler, as a library (macOS and iOS; untested on Linux,
        // where this file compiles to nothing). Link \(spec.safariTarget) into the extension target Xcode
        // made and subclass the handler there (Safari/README.md). It is a thin shim: the message goes to
        // the same endpoint and actions as the native-messaging host's frames.
        #if canImport(SafariServices)
            import BridgeFoundation
            import BridgeHost
            import \(spec.actionsTarget)
            import Foundation
            import SafariServices

            open class \(spec.name)SafariHandler: NSObject, NSExtensionRequestHandling {
                /// The host's actions (Sources/\(spec.hostProduct)/main.swift lists the same: change both).
                private static let endpoint = HostProgram.inProcessEndpoint(
                    groupID: AppConfiguration.group, callerIdentity: "safari", actions: BuiltInActions.all + [AppInfoAction()])

                open func beginRequest(with context: NSExtensionContext) {
                    let item = context.inputItems.first as? NSExtensionItem
                    let message = item?.userInfo?[SFExtensionMessageKey]
                    let reply: Any
                    do {
                        reply = FoundationJSON.object(Self.endpoint.reply(to: try FoundationJSON.value(message)))
                    } catch {
                        reply = ["status": "error", "code": "invalid_request", "message": String(describing: error)]
                    }
                    let response = NSExtensionItem()
                    response.userInfo = [SFExtensionMessageKey: reply]
                    context.completeRequest(returningItems: [response], completionHandler: nil)
                }
            }
        #endif

        """
    }

    static func safariReadme(_ spec: ProjectSpec) -> String {
        """
        # \(spec.name) in Safari (macOS and iOS; untested here)

        Safari runs web extensions inside an app. The same extension and the same
        actions serve it; only the transport differs: Safari hands the message to
        the extension's `SafariWebExtensionHandler.beginRequest(with:)` instead of
        starting the host. This package's `\(spec.safariTarget)` library holds that
        handler (`Sources/\(spec.safariTarget)/SafariWebExtensionHandler.swift`); its code
        compiles only where SafariServices exists (on Linux the library is empty).

        1. Convert the extension into an Xcode project with Apple's packager:
           `xcrun safari-web-extension-packager extension --app-name \(spec.name)`.
        2. In Xcode, add this package (File ▸ Add Packages… ▸ Add Local…, this folder)
           and link the `\(spec.safariTarget)` library to the extension target (and
           `\(spec.appTarget)` to the app target: it turns the extension on, writes its
           settings and imports what it saved, as `\(spec.appProduct)` does here).
        3. Replace the body of the extension target's `SafariWebExtensionHandler.swift`
           with a subclass, so the `NSExtensionPrincipalClass` Xcode wrote still names it:

           ```swift
           import \(spec.safariTarget)

           final class SafariWebExtensionHandler: \(spec.name)SafariHandler {}
           ```
        4. Give the app and the extension the App Group `\(spec.group)` (Signing &
           Capabilities), so both read the same suite.
        5. Nothing to change in the JavaScript: Safari ignores the application
           argument of `browser.runtime.sendNativeMessage` and delivers every
           message to this handler, so the host name the extension passes for
           Chromium and Firefox does no harm there.

        Tested here (Linux): the conversion between Foundation's values and JSON
        (`FoundationJSON` in ExtensionBridge's `BridgeFoundation`: NSNumber booleans
        versus numbers, NSNull, nested arrays) and the endpoint the handler calls.
        Not tested here: this handler, Xcode, Safari, macOS, iOS. A project made before
        the handler became a library has an older copy in `Safari/`, which nothing
        builds: delete it.

        """
    }

    /// A Swift string literal of `text`: the one place a value becomes Swift
    /// source. Quotes and backslashes are escaped (so `\(` cannot start an
    /// interpolation), and every scalar that is not printable ASCII (controls,
    /// DEL, C1, line and paragraph separators, bidi controls, any non-ASCII)
    /// is written as `\u{…}`: the literal stays on one line and reads the same
    /// in any editor. Identifiers (the name, its targets) are not literals:
    /// `ProjectSpec.validate` allows only ASCII letters, digits and `_` there.
    static func swiftLiteral(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value >= 0x7F {
                    out += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

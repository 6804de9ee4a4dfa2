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
    ///   - bridgeVersion: the version of the ExtensionBridge those files come from, recorded in
    ///     `.extension-bridge/core.json` with the fingerprint of every core file.
    public static func files(
        spec: ProjectSpec, key: ExtensionKey, extensionFiles: [GeneratedFile],
        bridgeVersion: String = BridgeVersion.current
    ) throws(GeneratorError) -> [GeneratedFile] {
        // compat/ is the Safari shim for imported extensions only (`files(…, safari:)`), with its test.
        let bundled = extensionFiles.filter { !$0.path.hasPrefix("compat/") && $0.path != "test/safari-shim.test.js" }
        let own = try ExtensionCustomizer.customize(bundled, spec: spec, key: key)
        return project(spec: spec, key: key, extension: own, safariImport: false, bridgeVersion: bridgeVersion)
    }

    /// Every file `new --from-safari` writes: the project around the imported extension
    /// (`SafariImport.extensionFiles`), and the report of what changed. The author's files and the
    /// rewritten manifest are the app's; only `bridge-compat/`'s shim and namespace file are core.
    public static func files(
        spec: ProjectSpec, key: ExtensionKey, extensionFiles: [GeneratedFile], safari: SafariImport,
        bridgeVersion: String = BridgeVersion.current
    ) throws(GeneratorError) -> (files: [GeneratedFile], report: SafariImport.Report) {
        let (imported, report) = try safari.extensionFiles(spec: spec, key: key, bundled: extensionFiles)
        let files = project(spec: spec, key: key, extension: imported, safariImport: true, bridgeVersion: bridgeVersion)
        return (files, report)
    }

    /// The core files of an imported project as `upgrade` regenerates them: the project's and the
    /// two `bridge-compat/` files (the author's extension is never regenerated).
    static func safariImportCore(
        spec: ProjectSpec, key: ExtensionKey, extensionFiles: [GeneratedFile], bridgeVersion: String
    ) throws(GeneratorError) -> [GeneratedFile] {
        let compat = try SafariImport.compatFiles(hostName: spec.hostName, bundled: extensionFiles)
        return project(spec: spec, key: key, extension: compat, safariImport: true, bridgeVersion: bridgeVersion)
    }

    /// The project around `own`, the extension's files (relative to `extension/`).
    static func project(
        spec: ProjectSpec, key: ExtensionKey, extension own: [GeneratedFile], safariImport: Bool, bridgeVersion: String
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
            GeneratedFile("Tests/\(spec.name)HostTests/AppInfoTests.swift", text: hostTests(spec)),
            GeneratedFile("bridge.json", JSONWriter.prettyBytes(description.json)),
            GeneratedFile(
                "README.md", text: readme(spec, chromiumID: key.chromiumID, safariImport: safariImport)),
            GeneratedFile("scripts/install.sh", text: installScript(spec), permissions: 0o755),
            GeneratedFile("scripts/test.sh", text: testScript(spec, safariImport: safariImport), permissions: 0o755),
            GeneratedFile("scripts/package-deb.sh", text: packageScript(spec), permissions: 0o755),
            GeneratedFile("Safari/SafariWebExtensionHandler.swift", text: safariHandler(spec)),
            GeneratedFile("Safari/README.md", text: safariReadme(spec)),
            GeneratedFile("keys/README.md", text: keysReadme(spec, chromiumID: key.chromiumID)),
            GeneratedFile("keys/extension-private-key.pem", key.privateKeyPEM, permissions: 0o600),
            GeneratedFile(
                ".gitignore",
                text:
                    ".build/\n.swiftpm/\n# The extension's private key: keep it, do not publish it (keys/README.md).\nkeys/*.pem\n"
            ),
        ]
        out += own.map { GeneratedFile("extension/" + $0.path, $0.bytes, permissions: $0.permissions) }
        let record = CoreRecord(
            version: bridgeVersion, dependency: spec.dependency,
            coreFiles: ProjectOwnership.coreFiles(out, safariImport: safariImport), safariImport: safariImport)
        out.append(GeneratedFile(CoreRecord.path, JSONWriter.prettyBytes(record.json)))
        return out
    }

    // MARK: Swift package

    static func packageSwift(_ spec: ProjectSpec) -> String {
        // Every value below is a Swift string literal made by `swiftLiteral`,
        // whatever `validate` already checked: nothing from an answer is code.
        let dependency: String
        let packageName: String
        switch spec.dependency {
        case .path(let path):
            dependency = ".package(name: \"ExtensionBridge\", path: \(swiftLiteral(path)))"
            packageName = swiftLiteral("ExtensionBridge")
        case .url(let url, let exact):
            // Pinned: a newer release changes the project only through `extension-bridge upgrade`.
            dependency = ".package(url: \(swiftLiteral(url)), exact: \(swiftLiteral(exact)))"
            packageName = swiftLiteral(spec.packageIdentity ?? "extension-bridge")
        }
        let name = swiftLiteral(spec.name)
        let actions = swiftLiteral(spec.actionsTarget)
        let host = swiftLiteral(spec.hostProduct)
        let tests = swiftLiteral(spec.name + "HostTests")
        return """
            // swift-tools-version:6.0
            // \(spec.name): a native-messaging bridge generated by `extension-bridge new`.
            import PackageDescription

            let package = Package(
                name: \(name),
                dependencies: [\(dependency)],
                targets: [
                    // The app's own actions (appInfo, and yours): a library, so tests and a Safari handler share them.
                    .target(
                        name: \(actions),
                        dependencies: [.product(name: "BridgeHost", package: \(packageName))]),
                    // The native-messaging host the browsers start: main.swift only.
                    .executableTarget(
                        name: \(host),
                        dependencies: [\(actions), .product(name: "BridgeHost", package: \(packageName))]),
                    // Drives the built host over real pipes, as a browser does.
                    .testTarget(name: \(tests), dependencies: [\(host)]),
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
        // A global, so what the program builds lives until exit, unfreed.
        let program = HostProgram(
            configuration: HostProgram.Configuration(
                name: \(swiftLiteral(spec.hostProduct)), defaultGroupID: AppConfiguration.group,
                app: AppIdentity(name: AppConfiguration.name, version: AppConfiguration.version)),
            actions: BuiltInActions.all + [AppInfoAction()])
        Platform.exit(program.run(arguments: CommandLine.arguments))

        """
    }

    static func hostTests(_ spec: ProjectSpec) -> String {
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
                try process.run()
                for request in requests {
                    let body = try JSONSerialization.data(withJSONObject: request)
                    var length = UInt32(body.count)
                    try input.fileHandleForWriting.write(contentsOf: Data(bytes: &length, count: 4) + body)
                }
                try input.fileHandleForWriting.close()
                let bytes = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
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
                try process.run()
                let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                #expect(text.hasPrefix(\(swiftLiteral(spec.hostProduct + " " + spec.version + " (" + spec.name + ", built on ExtensionBridge "))), "\\(text)")
            }
        }

        """
    }

    // MARK: Scripts and docs

    static func installScript(_ spec: ProjectSpec) -> String {
        """
        #!/usr/bin/env bash
        # Builds \(spec.name)'s host (release, a static executable: no Swift runtime needed where it
        # runs) and registers it with your browsers: `extension-bridge install --config bridge.json`
        # copies the host to a stable folder, writes the browsers' host manifests and the host's
        # configuration. Arguments go to `extension-bridge install` (for example --browser chromium).
        set -euo pipefail
        cd "$(dirname "$0")/.."
        command -v extension-bridge >/dev/null 2>&1 || {
            echo "install.sh: extension-bridge is not on PATH: install ExtensionBridge first (its scripts/install.sh)" >&2
            exit 69
        }
        \(HostBuild.projectCommand(product: spec.hostProduct))
        extension-bridge install --config bridge.json \\
            --host-path "$(swift build -c release --show-bin-path)/\(spec.hostProduct)" "$@"

        """
    }

    static func packageScript(_ spec: ProjectSpec) -> String {
        """
        #!/usr/bin/env bash
        # Builds \(spec.name)'s Debian package: scripts/package-deb.sh [OUTPUT_DIR] (default dist/).
        # The host is built static; `extension-bridge pack --deb --config bridge.json` (the same code
        # that packages ExtensionBridge itself) writes <package>_<version>_<arch>.deb: the host and its
        # configuration in /usr/lib/\(spec.hostName)/, the system host manifests of every browser, and
        # the extension for every user of Debian's chromium and firefox-esr. Name, version,
        # maintainer and copyright come from bridge.json. Prints the .deb's path.
        set -euo pipefail
        cd "$(dirname "$0")/.."
        command -v extension-bridge >/dev/null 2>&1 || {
            echo "package-deb.sh: extension-bridge is not on PATH: install ExtensionBridge first" >&2
            exit 69
        }
        \(HostBuild.projectCommand(product: spec.hostProduct)) >&2
        extension-bridge pack --deb --config bridge.json --out "${1:-dist}" \\
            --host-path "$(swift build -c release --show-bin-path)/\(spec.hostProduct)" | sed -n 's/^wrote //p'

        """
    }

    static func testScript(_ spec: ProjectSpec, safariImport: Bool = false) -> String {
        // An imported extension has node tests only if its author wrote some.
        let node =
            safariImport
            ? "if [ -d extension/test ]; then node --test extension/test/; fi" : "node --test extension/test/"
        return """
            #!/usr/bin/env bash
            # Every test of \(spec.name): the host over real pipes, and the extension's node tests.
            set -euo pipefail
            cd "$(dirname "$0")/.."
            swift build --build-tests
            HOST_BINARY="$(swift build --show-bin-path)/\(spec.hostProduct)" swift test --skip-build
            \(node)

            """
    }

    static func readme(_ spec: ProjectSpec, chromiumID: String, safariImport: Bool = false) -> String {
        let loaded =
            safariImport
            ? """
            Add-on…" and its `manifest.json`. `extension/` is your Safari Web Extension,
            imported with `--from-safari`: your files byte for byte, `manifest.json` adapted,
            and ExtensionBridge's shim in `extension/bridge-compat/` (docs/GENERATOR.md,
            "Porting a Safari Web Extension"). The host answers your handler's messages.
            """
            : """
            Add-on…" and its `manifest.json`. Its popup shows `appInfo`'s answer.
            """
        let callingActions =
            safariImport
            ? "your background calls one with `browser.runtime.sendNativeMessage({action: …})`."
            : """
            to call one from the extension,
                  declare it in `extension/app/app.js` (`actions`: who may call it) and send
                  `{type: "appAction", action, payload}` (ExtensionBridge's docs/GENERATOR.md).
            """
        return """
            # \(spec.name)

            A native-messaging bridge between \(spec.name)'s browser extension and its
            Swift host, generated by `extension-bridge new` (ExtensionBridge): the Safari
            Web Extension model in Chromium and Firefox.

            ```sh
            extension-bridge run --config bridge.json   # try it: a throwaway browser with the extension and
                                                        # the host, every message and error shown; edits reload it
            scripts/test.sh      # the host over real pipes, and the extension's node tests
            scripts/install.sh   # build the host (release) and register it with your browsers
            ```

            Then load `extension/` once: in Chromium-family browsers `chrome://extensions`,
            Developer mode, "Load unpacked"; in Firefox `about:debugging`, "Load Temporary
            \(loaded)

            | what | value |
            |---|---|
            | host name | `\(spec.hostName)` |
            | host executable | `\(spec.hostProduct)` |
            | group (the shared suite) | `\(spec.group)` |
            | Chromium extension id | `\(chromiumID)` (from the key in `extension/manifest.json`) |
            | Firefox add-on id | `\(spec.firefoxID)` |

            - `bridge.json` describes the bridge; `extension-bridge install|uninstall|doctor
              --config bridge.json` act on this bridge and no other.
            - Settings for the extension: `extension-bridge --suite \(spec.group) write …`.
            - Your own actions: beside `Sources/\(spec.actionsTarget)/AppInfoAction.swift`,
              registered in `Sources/\(spec.hostProduct)/main.swift`; \(callingActions)
            - Your own transform (the extension's "Transform selection with …"): register
              `TransformAction { text, context in … }` after `BuiltInActions.all` in main.swift;
              it replaces the built-in rule (the vocabulary). docs/PROTOCOL.md: `transform`.
            - `keys/`: the extension's private key (see keys/README.md). `Safari/`: the
              macOS handler (see Safari/README.md; untested on Linux).

            ## Moving to a newer ExtensionBridge

            `Package.swift` depends on one exact ExtensionBridge (a versioned source folder
            that a later install does not change, or a published version with `exact:`);
            `.extension-bridge/core.json` records which, and the fingerprint of every file
            ExtensionBridge owns here (the extension outside `extension/app/`, `Package.swift`,
            `scripts/`, `Safari/README.md`). Commit it. After installing a newer ExtensionBridge:

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
        // \(spec.name)'s Safari Web Extension handler (macOS; untested on Linux).
        // Add this file and the \(spec.actionsTarget) and ExtensionBridge packages to the
        // extension target Xcode made (Safari/README.md). It is a thin shim: the
        // message goes to the same endpoint as the native-messaging host's frames.
        #if canImport(SafariServices)
            import BridgeFoundation
            import BridgeHost
            import \(spec.actionsTarget)
            import Foundation
            import SafariServices

            final class SafariWebExtensionHandler: NSObject, NSExtensionRequestHandling {
                private static let endpoint = HostProgram.inProcessEndpoint(
                    groupID: AppConfiguration.group, callerIdentity: "safari", actions: BuiltInActions.all + [AppInfoAction()])

                func beginRequest(with context: NSExtensionContext) {
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
        # \(spec.name) in Safari (macOS; untested here)

        Safari runs web extensions inside an app. The same extension and the same
        actions serve it; only the transport differs: Safari hands the message to
        `SafariWebExtensionHandler.beginRequest(with:)` instead of starting the host.

        1. Convert the extension into an Xcode project with Apple's packager:
           `xcrun safari-web-extension-packager extension --app-name \(spec.name)`.
        2. In Xcode, add this package (File ▸ Add Packages… ▸ Add Local…, this folder)
           and link `\(spec.actionsTarget)`, `BridgeHost` and `BridgeFoundation` to the
           extension target.
        3. Replace the extension target's `SafariWebExtensionHandler.swift` with the one
           beside this file.
        4. Give the app and the extension the App Group `\(spec.group)` (Signing &
           Capabilities), so both read the same suite.
        5. Nothing to change in the JavaScript: Safari ignores the application
           argument of `browser.runtime.sendNativeMessage` and delivers every
           message to this handler, so the host name the extension passes for
           Chromium and Firefox does no harm there.

        The conversion between Foundation's values and JSON (NSNumber booleans versus
        numbers, NSNull, nested arrays) is `FoundationJSON` in ExtensionBridge's
        `BridgeFoundation`, tested on Linux; this handler is only the shim.

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

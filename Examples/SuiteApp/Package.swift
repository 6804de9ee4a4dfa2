// swift-tools-version:6.0
// An app's own side of the group it shares with its extension, on ExtensionBridge's SharedSuite:
// write the vocabulary and the enabled flag, read, drain or watch the queue, share a file.
// docs/SUITE.md "From your Swift app" quotes it; scripts/test.sh builds it and runs it against the
// real host.
import PackageDescription

let package = Package(
    name: "SuiteApp",
    dependencies: [.package(name: "ExtensionBridge", path: "../..")],
    targets: [
        // The app's suite code: `import SharedSuite` and nothing else.
        .target(name: "SuiteAppKit", dependencies: [.product(name: "SharedSuite", package: "ExtensionBridge")]),
        // A command line around it (an app would have its own UI here).
        .executableTarget(name: "suite-app", dependencies: ["SuiteAppKit"]),
        // Runs the built suite-app beside the real extension-bridge-host, as an app and a browser would.
        .testTarget(name: "SuiteAppTests", dependencies: ["suite-app"]),
    ],
    swiftLanguageModes: [.v6]
)

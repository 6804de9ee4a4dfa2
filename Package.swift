// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ExtensionBridge",
    products: [
        .executable(name: "extension-bridge-host", targets: ["extension-bridge-host"]),
        .executable(name: "extension-bridge", targets: ["extension-bridge"]),
        // What an app's own host builds on (Examples/, `extension-bridge new`).
        .library(
            name: "BridgeHost",
            targets: ["BridgeHost", "BridgeProtocol", "BridgeSystem", "BridgeJSON", "SharedSuite", "NativeMessaging"]),
        .library(name: "SharedSuite", targets: ["SharedSuite", "BridgeProtocol", "BridgeSystem", "BridgeJSON"]),
        // Foundation ↔ JSONValue for a Safari handler (macOS); never in the host.
        .library(name: "BridgeFoundation", targets: ["BridgeFoundation"]),
    ],
    targets: [
        // The one place with libc and platform #ifs: descriptors, files, locks, clock, signals, folder watches.
        .target(name: "BridgeSystem"),
        // What both sides of a module wall agree on: error codes, versions, limits, host name,
        // the host configuration and allowlist formats, origin normalisation. Depends on nothing.
        .target(name: "BridgeProtocol"),
        // Frame codec (pure state machine) and the stdio channel.
        .target(name: "NativeMessaging", dependencies: ["BridgeSystem"]),
        // JSON value, parser and writer without Foundation (start-up cost).
        .target(name: "BridgeJSON"),
        // Group container, typed suite, shared files, pending queue.
        .target(name: "SharedSuite", dependencies: ["BridgeJSON", "BridgeSystem", "BridgeProtocol"]),
        // The endpoint (frame in, reply out), actions, caller policy, session and program.
        .target(
            name: "BridgeHost",
            dependencies: ["BridgeProtocol", "BridgeJSON", "SharedSuite", "NativeMessaging", "BridgeSystem"]),
        // Foundation's [String: Any] ↔ JSONValue, for SafariWebExtensionHandler; not on the host's path.
        .target(name: "BridgeFoundation", dependencies: ["BridgeJSON"]),
        // The macOS Keychain through Security.framework (Foundation) for the CLI's `secret` verbs; the host never
        // links it (it reads items through /usr/bin/security). Imports nothing of Apple's elsewhere.
        .target(name: "BridgeKeychain", dependencies: ["SharedSuite", "BridgeSystem"]),
        // `extension-bridge new`: checks and templates of a generated bridge project.
        .target(
            name: "BridgeGenerator",
            dependencies: ["BridgeProtocol", "BridgeJSON", "BridgeSystem", "BrowserSupport", "SharedSuite"]),
        // Browser catalog, host manifests, install, uninstall, doctor.
        .target(
            name: "BrowserSupport",
            dependencies: ["SharedSuite", "BridgeProtocol", "BridgeJSON", "NativeMessaging", "BridgeSystem"]),
        // `extension-bridge run`: a bridge in a throwaway browser profile, its host built and traced, the
        // extension reloaded on edits (Chromium's DevTools protocol, Firefox's remote debugging protocol).
        .target(
            name: "BridgeRun",
            dependencies: ["BrowserSupport", "SharedSuite", "BridgeProtocol", "BridgeJSON", "BridgeSystem"]),
        // The settings tool's verbs and argument parsing, testable as a library.
        .target(
            name: "BridgeCLI",
            dependencies: [
                "BridgeProtocol", "BridgeJSON", "SharedSuite", "BrowserSupport", "BridgeGenerator", "BridgeKeychain",
                "BridgeRun", "BridgeSystem",
            ]
        ),
        .executableTarget(name: "extension-bridge-host", dependencies: ["BridgeHost", "BridgeSystem"]),
        .executableTarget(name: "extension-bridge", dependencies: ["BridgeCLI", "BridgeSystem"]),
        // Micro-benchmarks for scripts/bench (suite stat path and parse); not installed.
        .executableTarget(
            name: "extension-bridge-bench", dependencies: ["SharedSuite", "BridgeJSON", "BridgeSystem"]),

        // What the test and fuzz targets share: `TemporaryFolder` and the in-memory doubles (`MemorySuiteStore`,
        // `MemoryQueue`, `ManualClock`, `MemorySecretStore`). Never linked by a product.
        .target(
            name: "TestSupport", dependencies: ["SharedSuite", "BridgeJSON", "BridgeSystem"], path: "Tests/TestSupport"),
        .testTarget(name: "BridgeSystemTests", dependencies: ["TestSupport", "BridgeSystem"]),
        .testTarget(name: "BridgeProtocolTests", dependencies: ["BridgeProtocol"]),
        .testTarget(name: "BridgeFoundationTests", dependencies: ["BridgeFoundation", "BridgeJSON"]),
        .testTarget(name: "BridgeKeychainTests", dependencies: ["BridgeKeychain", "SharedSuite", "BridgeSystem"]),
        .testTarget(
            name: "BridgeGeneratorTests",
            dependencies: ["TestSupport", "BridgeGenerator", "BrowserSupport", "BridgeJSON", "BridgeSystem"]),
        .testTarget(name: "NativeMessagingTests", dependencies: ["NativeMessaging", "BridgeSystem"]),
        .testTarget(name: "BridgeJSONTests", dependencies: ["BridgeJSON"]),
        .testTarget(
            name: "SharedSuiteTests", dependencies: ["TestSupport", "SharedSuite", "BridgeJSON", "BridgeSystem"]),
        .testTarget(
            name: "BridgeHostTests",
            dependencies: [
                "TestSupport", "BridgeHost", "BridgeProtocol", "SharedSuite", "BridgeJSON", "NativeMessaging",
                "BridgeSystem",
            ]),
        .testTarget(
            name: "BridgeCLITests",
            dependencies: ["TestSupport", "BridgeCLI", "BridgeProtocol", "SharedSuite", "BridgeJSON", "BridgeSystem"]),
        .testTarget(
            name: "BridgeRunTests",
            dependencies: [
                "TestSupport", "BridgeRun", "BrowserSupport", "BridgeProtocol", "BridgeJSON", "BridgeSystem",
            ]),
        .testTarget(
            name: "BrowserSupportTests",
            dependencies: ["TestSupport", "BrowserSupport", "SharedSuite", "BridgeJSON", "BridgeSystem"]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["TestSupport", "BridgeJSON", "SharedSuite"]),
    ],
    swiftLanguageModes: [.v6]
)

// Release builds call generic metadata accessors directly instead of demangling
// type names at run time: the first use of each generic type (Dictionary,
// Array of X) then costs a cache lookup, not a demangle and a conformance
// scan. That halves a one-shot host's start-up instructions
// (docs/BENCHMARKS.md). Root-package flags only: no dependency needs them.
for target in package.targets where target.type == .regular || target.type == .executable {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .unsafeFlags(
                ["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"], .when(configuration: .release)
            )
        ]
}

// Fuzz targets (scripts/fuzz/run.sh, Fuzz/README.md). Built with `-DFUZZING -sanitize=fuzzer,address`,
// each is a libFuzzer binary; in a normal build each replays the input files named on its command line.
for (name, dependencies) in [
    ("FuzzFrameDecoder", ["NativeMessaging", "BridgeSystem"]),
    ("FuzzJSONParser", ["BridgeJSON", "BridgeSystem"]),
    ("FuzzEndpoint", ["BridgeHost", "BridgeJSON", "BridgeProtocol", "SharedSuite", "BridgeSystem", "TestSupport"]),
    ("FuzzSuiteFile", ["SharedSuite", "BridgeJSON", "BridgeSystem"]),
    ("FuzzValueParser", ["BridgeCLI", "BridgeJSON", "SharedSuite", "BridgeSystem"]),
] {
    package.targets.append(
        .executableTarget(
            name: name, dependencies: (dependencies + ["FuzzSupport"]).map { .target(name: $0) }, path: "Fuzz/\(name)"))
}
// The entry point and checks every fuzz target shares.
package.targets.append(.target(name: "FuzzSupport", dependencies: ["BridgeSystem"], path: "Fuzz/FuzzSupport"))

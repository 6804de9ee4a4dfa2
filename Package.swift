// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ExtensionBridge",
    products: [
        .executable(name: "extension-bridge-host", targets: ["extension-bridge-host"]),
        .executable(name: "extension-bridge", targets: ["extension-bridge"]),
        .library(name: "BridgeHost", targets: ["BridgeHost"]),
        .library(name: "SharedSuite", targets: ["SharedSuite"]),
    ],
    targets: [
        // The one place with platform #ifs: POSIX calls, errno, files, clocks.
        .target(name: "BridgeSystem"),
        // Frame codec (pure state machine) and the stdio channel.
        .target(name: "NativeMessaging", dependencies: ["BridgeSystem"]),
        // JSON value, parser and writer without Foundation (start-up cost).
        .target(name: "BridgeJSON"),
        // Group container, typed suite, shared files, pending queue.
        .target(name: "SharedSuite", dependencies: ["BridgeJSON", "BridgeSystem"]),
        // Request envelope, handler protocol, router, actions, caller policy.
        .target(name: "BridgeHost", dependencies: ["BridgeJSON", "SharedSuite", "NativeMessaging", "BridgeSystem"]),
        // Browser catalog, host manifests, install, uninstall, doctor.
        .target(
            name: "BrowserSupport", dependencies: ["BridgeJSON", "SharedSuite", "NativeMessaging", "BridgeSystem"]),
        // The settings tool's verbs and argument parsing, testable as a library.
        .target(
            name: "BridgeCLI",
            dependencies: ["BridgeJSON", "SharedSuite", "BridgeHost", "BrowserSupport", "BridgeSystem"]
        ),
        .executableTarget(name: "extension-bridge-host", dependencies: ["BridgeHost"]),
        .executableTarget(name: "extension-bridge", dependencies: ["BridgeCLI"]),
        // Micro-benchmarks for scripts/bench (suite stat path and parse); not installed.
        .executableTarget(
            name: "extension-bridge-bench", dependencies: ["SharedSuite", "BridgeHost", "BridgeJSON", "BridgeSystem"]),

        // Helpers the test targets share (temporary folders); tests only.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "NativeMessagingTests", dependencies: ["NativeMessaging"]),
        .testTarget(name: "BridgeJSONTests", dependencies: ["BridgeJSON"]),
        .testTarget(
            name: "SharedSuiteTests", dependencies: ["TestSupport", "SharedSuite", "BridgeJSON", "BridgeSystem"]),
        .testTarget(name: "BridgeHostTests", dependencies: ["BridgeHost", "SharedSuite", "BridgeJSON"]),
        .testTarget(name: "BridgeCLITests", dependencies: ["TestSupport", "BridgeCLI", "SharedSuite", "BridgeJSON"]),
        .testTarget(
            name: "BrowserSupportTests", dependencies: ["TestSupport", "BrowserSupport", "BridgeJSON", "BridgeSystem"]),
        .testTarget(name: "EndToEndTests", dependencies: ["TestSupport", "BridgeJSON"]),
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
    ("FuzzRouter", ["BridgeHost", "BridgeJSON", "SharedSuite", "BridgeSystem"]),
    ("FuzzSuiteFile", ["SharedSuite", "BridgeSystem"]),
    ("FuzzValueParser", ["BridgeCLI", "BridgeJSON", "SharedSuite", "BridgeSystem"]),
] {
    package.targets.append(
        .executableTarget(
            name: name, dependencies: (dependencies + ["FuzzSupport"]).map { .target(name: $0) }, path: "Fuzz/\(name)"))
}
// The entry point and checks every fuzz target shares.
package.targets.append(.target(name: "FuzzSupport", dependencies: ["BridgeSystem"], path: "Fuzz/FuzzSupport"))

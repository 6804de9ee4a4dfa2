// swift-tools-version:6.0
// An app's own native-messaging host, built on ExtensionBridge: the built-in
// actions plus one of its own (`greet`). scripts/test.sh builds and tests it.
import PackageDescription

let package = Package(
    name: "CustomAction",
    dependencies: [.package(name: "ExtensionBridge", path: "../..")],
    targets: [
        // The app's actions: a library, so tests can use them in process too.
        .target(name: "GreetingActions", dependencies: [.product(name: "BridgeHost", package: "ExtensionBridge")]),
        // main.swift only: the program, the built-in actions and the app's.
        .executableTarget(
            name: "greeting-host",
            dependencies: ["GreetingActions", .product(name: "BridgeHost", package: "ExtensionBridge")]),
        // Drives the built host over real pipes, as a browser does.
        .testTarget(name: "GreetingHostTests", dependencies: ["greeting-host"]),
    ],
    swiftLanguageModes: [.v6]
)

import BridgeSystem
import Foundation
import TestSupport
import Testing

@testable import BridgeGenerator

/// The libraries a project carries, read from this checkout: the products' modules and what they
/// import, byte for byte, with a manifest whose dependencies are those imports.
@Suite struct CarriedSourceTests {
    let repository = ProjectTemplateTests.repository

    @Test func read_takesTheProductsModules_andEveryModuleTheyImport_andNothingElse() throws {
        let carried = try CarriedSource.read(repository, version: "0.1.0")
        #expect(
            carried.modules.map(\.name) == [
                "BridgeFoundation", "BridgeHost", "BridgeJSON", "BridgeProtocol", "BridgeSystem", "NativeMessaging",
                "SharedSuite",
            ])
        let host = try #require(carried.modules.first { $0.name == "BridgeHost" })
        #expect(
            host.dependencies == ["BridgeJSON", "BridgeProtocol", "BridgeSystem", "NativeMessaging", "SharedSuite"])
        #expect(carried.modules.first { $0.name == "BridgeSystem" }?.dependencies == [])
        // Every file of the module, as it is in the checkout (the .docc catalog too).
        let onDisk = try ProjectWriter.readTree(repository + "/Sources/BridgeHost")
        #expect(host.files == onDisk)
        #expect(host.files.contains { $0.path == "BridgeHost.docc/BridgeHost.md" })
        let paths = carried.files.map(\.path)
        #expect(paths.contains("ExtensionBridge/Sources/SharedSuite/Suite.swift"))
        #expect(!paths.contains { $0.hasPrefix("ExtensionBridge/Sources/BridgeCLI/") }, "the tool is not carried")
    }

    @Test func packageSwift_productsAreEachModulesClosure_andTargetsTheirImports() throws {
        let carried = try CarriedSource.read(repository, version: "0.1.0")
        let manifest = carried.packageSwift
        #expect(manifest.contains(#"name: "ExtensionBridge""#))
        #expect(
            manifest.contains(
                #".library(name: "SharedSuite", targets: ["BridgeJSON", "BridgeProtocol", "BridgeSystem", "SharedSuite"])"#
            ))
        #expect(manifest.contains(#".library(name: "BridgeFoundation", targets: ["BridgeFoundation", "BridgeJSON"])"#))
        #expect(manifest.contains(#".target(name: "NativeMessaging", dependencies: ["BridgeSystem"])"#))
        #expect(manifest.contains("-disable-concrete-type-metadata-mangled-name-accessors"))
        #expect(carried.readme.contains("ExtensionBridge 0.1.0"))
    }

    @Test(arguments: [
        ("import BridgeJSON", ["BridgeJSON"]),
        ("@preconcurrency import Glibc", ["Glibc"]),
        ("public import SharedSuite", ["SharedSuite"]),
        ("  @_implementationOnly internal import struct BridgeSystem.FileStatus", ["BridgeSystem"]),
        ("// import NotThis", []),
        ("/// ```swift\n/// import NorThis", []),
        ("let imported = 1", []),
        ("#if canImport(Darwin)\n    import Darwin\n#endif", ["Darwin"]),
    ])
    func imports_readTheModuleAfterAttributesAndAccess(source: String, expected: [String]) {
        #expect(CarriedSource.imports(in: Array(source.utf8)) == expected)
    }

    @Test func aSourceWithoutAProductsModule_isRefusedByName() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        try FileSystem.makeDirectories(tmp.path + "/Sources/BridgeHost", permissions: 0o755)
        try FileSystem.writeAtomically(tmp.path + "/Sources/BridgeHost/A.swift", Array("import Missing\n".utf8))
        #expect {
            try CarriedSource.read(tmp.path, version: "0.1.0")
        } throws: { error in
            (error as? GeneratorError)?.exitStatus == 66 && "\(error)".contains("Sources/BridgeFoundation")
        }
    }
}

import BridgeSystem

/// The ExtensionBridge libraries a generated project carries in `ExtensionBridge/`, so that a clone
/// of it builds offline on any machine with a Swift toolchain and nothing else installed: no path
/// of the author's machine, no URL that must resolve.
///
/// What is carried: the modules behind the products a project links (`BridgeHost`, `SharedSuite`,
/// `BridgeFoundation`) and every ExtensionBridge module they import, each folder
/// (`Sources/<Module>/`) copied byte for byte from the source `new` or `upgrade` runs from, beside a
/// manifest of their own (`ExtensionBridge/Package.swift`) whose target dependencies are the
/// modules' own imports: the same graph as ExtensionBridge's `Package.swift`, whose dependencies
/// `scripts/checks/modules.py` holds to those imports. Every carried file is a core file: `upgrade`
/// replaces the folder with the newer version's, and refuses while one was edited.
///
/// The `extension-bridge` tool itself is not carried: building and testing need no ExtensionBridge;
/// installing and packaging need the tool (docs/GENERATOR.md).
public struct CarriedSource: Equatable, Sendable {
    /// The folder in the project, and the package's name there.
    public static let folder = "ExtensionBridge"
    /// The libraries a project links: what the carried package offers as products.
    static let products = ["BridgeHost", "SharedSuite", "BridgeFoundation"]

    /// One carried module.
    public struct Module: Equatable, Sendable {
        public var name: String
        /// The carried modules it imports, sorted.
        public var dependencies: [String]
        /// Its files, relative to its folder.
        public var files: [GeneratedFile]
    }

    /// The ExtensionBridge version the modules are from.
    public var version: String
    /// Sorted by name.
    public var modules: [Module]

    public init(version: String, modules: [Module]) {
        self.version = version
        self.modules = modules.sorted { $0.name < $1.name }
    }

    /// Reads the modules a project carries from the ExtensionBridge source `folder`: the products'
    /// modules, then each ExtensionBridge module (a folder of `Sources/`) one of them imports.
    /// - Throws: `GeneratorError.missing` (66) when a module's folder cannot be read.
    public static func read(_ folder: String, version: String) throws(GeneratorError) -> CarriedSource {
        var modules: [String: Module] = [:]
        var pending = products
        while let name = pending.popLast() {
            if modules[name] != nil { continue }
            guard isModule(name, in: folder) else {
                throw .missing(
                    "the ExtensionBridge source \(folder) has no Sources/\(name), which a project carries; point "
                        + "--package-path at an ExtensionBridge checkout")
            }
            let files = try ProjectWriter.readTree(folder + "/Sources/" + name)
            let imported = Set(files.filter { $0.path.hasSuffix(".swift") }.flatMap { imports(in: $0.bytes) })
            let dependencies = imported.filter { $0 != name && isModule($0, in: folder) }.sorted()
            modules[name] = Module(name: name, dependencies: dependencies, files: files)
            pending += dependencies
        }
        return CarriedSource(version: version, modules: Array(modules.values))
    }

    /// Whether `name` is one of the source's own modules (a folder `Sources/<name>`), not the
    /// toolchain's (`Glibc`, `Foundation`), and a plain identifier (ASCII letters, digits, `_`):
    /// the manifest writes module names as they are.
    private static func isModule(_ name: String, in folder: String) -> Bool {
        let bytes = Array(name.utf8)
        func isLetter(_ b: UInt8) -> Bool { (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b == UInt8(ascii: "_") }
        guard let first = bytes.first, isLetter(first), bytes.allSatisfy({ isLetter($0) || ($0 >= 48 && $0 <= 57) })
        else { return false }
        return (try? FileSystem.status(folder + "/Sources/" + name))??.isDirectory == true
    }

    /// The modules a Swift file imports: each line whose first word, after attributes
    /// (`@preconcurrency`) and an access level, is `import` (`import struct X.Y` counts as `X`).
    static func imports(in bytes: [UInt8]) -> [String] {
        let modifiers: Set<Substring> = ["public", "internal", "package", "private", "fileprivate"]
        let kinds: Set<Substring> = ["struct", "class", "enum", "protocol", "func", "var", "let", "typealias"]
        var out: [String] = []
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })[...]
            while let first = words.first, first.hasPrefix("@") || modifiers.contains(first) { words.removeFirst() }
            guard words.first == "import" else { continue }
            words.removeFirst()
            if let first = words.first, kinds.contains(first) { words.removeFirst() }
            guard let module = words.first?.split(separator: ".").first, !module.isEmpty else { continue }
            out.append(String(module))
        }
        return out
    }

    /// The carried folder's files, relative to the project: the manifest, a README, every module.
    public var files: [GeneratedFile] {
        var out = [
            GeneratedFile(CarriedSource.folder + "/Package.swift", text: packageSwift),
            GeneratedFile(CarriedSource.folder + "/README.md", text: readme),
        ]
        for module in modules {
            for file in module.files {
                out.append(
                    GeneratedFile(
                        "\(CarriedSource.folder)/Sources/\(module.name)/\(file.path)", file.bytes,
                        permissions: file.permissions))
            }
        }
        return out
    }

    /// The modules `name` needs: itself and what it imports, directly or not, sorted.
    func closure(of name: String) -> [String] {
        let byName = Dictionary(modules.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var seen: Set<String> = []
        var pending = [name]
        while let next = pending.popLast() {
            guard seen.insert(next).inserted, let module = byName[next] else { continue }
            pending += module.dependencies
        }
        return seen.sorted()
    }

    /// The carried package's manifest. Module names are plain identifiers (`read` takes no other).
    var packageSwift: String {
        func list(_ names: [String]) -> String { names.map { "\"\($0)\"" }.joined(separator: ", ") }
        let products = CarriedSource.products.map {
            "        .library(name: \"\($0)\", targets: [\(list(closure(of: $0)))]),"
        }
        let targets = modules.map { module in
            module.dependencies.isEmpty
                ? "        .target(name: \"\(module.name)\"),"
                : "        .target(name: \"\(module.name)\", dependencies: [\(list(module.dependencies))]),"
        }
        return """
            // swift-tools-version:6.0
            // ExtensionBridge \(version)'s libraries, carried in this project so that it builds anywhere,
            // offline, with nothing else installed. Written by `extension-bridge new`; do not edit:
            // `extension-bridge upgrade` replaces this folder with a newer version's (README.md).
            import PackageDescription

            let package = Package(
                name: "ExtensionBridge",
                products: [
            \(products.joined(separator: "\n"))
                ],
                targets: [
            \(targets.joined(separator: "\n"))
                ],
                swiftLanguageModes: [.v6]
            )

            // As in ExtensionBridge's own manifest: release builds call generic metadata accessors
            // directly instead of demangling type names at run time, which halves a one-shot host's
            // start-up instructions.
            for target in package.targets {
                target.swiftSettings = [
                    .unsafeFlags(
                        ["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"],
                        .when(configuration: .release))
                ]
            }

            """
    }

    var readme: String {
        """
        # ExtensionBridge \(version), carried

        The ExtensionBridge libraries this project builds on: \(modules.map { "`\($0.name)`" }.joined(separator: ", ")),
        copied from ExtensionBridge \(version) by `extension-bridge new`. They are here so that
        a clone of the project builds and tests on any machine with a Swift toolchain,
        offline, with nothing else installed: `Package.swift` depends on this folder by a
        relative path.

        Do not edit these files: they are ExtensionBridge's. `extension-bridge upgrade`
        replaces this folder with a newer version's (and refuses while a file here differs
        from what `.extension-bridge/core.json` recorded). Put your code in `Sources/`.

        Installing and packaging (`scripts/install.sh`, `scripts/package-deb.sh`) need the
        `extension-bridge` tool itself, which is not carried.

        """
    }
}

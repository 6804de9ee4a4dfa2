import BridgeSystem

/// A Debian binary package: its control data and the files it installs,
/// staged in a folder and built by `dpkg-deb` (Debian's `dpkg` package).
///
/// Every bridge, the built-in one and each made by `new`, is packaged through
/// this one type (`extension-bridge pack --deb`), so their layouts cannot drift
/// apart.
public struct DebianPackage: Sendable {
    /// The `DEBIAN/control` fields.
    public struct Control: Equatable, Sendable {
        /// The package name: lowercase letters, digits, `+`, `-`, `.`; two or more characters.
        public var name: String
        public var version: String
        public var architecture: String
        /// `Name <email>`.
        public var maintainer: String
        /// The one-line description.
        public var summary: String
        /// The extended description, one paragraph per element.
        public var paragraphs: [String]
        public var enhances: [String]
        /// Packages some features need and the rest does without (Debian policy 7.2).
        public var suggests: [String]

        public init(
            name: String, version: String, architecture: String, maintainer: String, summary: String,
            paragraphs: [String], enhances: [String] = [], suggests: [String] = []
        ) {
            self.name = name
            self.version = version
            self.architecture = architecture
            self.maintainer = maintainer
            self.summary = summary
            self.paragraphs = paragraphs
            self.enhances = enhances
            self.suggests = suggests
        }
    }

    /// One thing the package installs.
    public enum Item: Equatable, Sendable {
        /// A regular file with its mode; `strip`: an executable whose symbols go.
        case file([UInt8], mode: Int, strip: Bool)
        /// A configuration file dpkg keeps (and asks about) on upgrade, removed on purge.
        case conffile([UInt8])
        /// A symbolic link to `target`, written relative to the link's folder.
        case link(target: String)
    }

    public var control: Control
    /// Absolute paths on the installed system and what is there.
    public private(set) var items: [String: Item] = [:]

    public init(control: Control) { self.control = control }

    /// True for a name Debian policy allows (section 5.6.1).
    public static func isPackageName(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count >= 2, bytes.count <= 64, let first = bytes.first, isLowerAlphanumeric(first) else {
            return false
        }
        return bytes.allSatisfy {
            isLowerAlphanumeric($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
        }
    }

    /// True for an upstream version Debian accepts without an epoch or revision: it starts
    /// with a digit; letters, digits, `.`, `+`, `~` follow.
    public static func isVersion(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9"), bytes.count <= 64 else {
            return false
        }
        return bytes.allSatisfy {
            isLowerAlphanumeric($0) || ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) || $0 == UInt8(ascii: ".")
                || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "~")
        }
    }

    private static func isLowerAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    /// Adds a file at the absolute `path`.
    public mutating func add(_ path: String, _ bytes: [UInt8], mode: Int = 0o644, strip: Bool = false) {
        items[path] = .file(bytes, mode: mode, strip: strip)
    }

    /// Adds a conffile at the absolute `path` (it must be under `/etc`).
    public mutating func addConffile(_ path: String, _ bytes: [UInt8]) { items[path] = .conffile(bytes) }

    /// Adds a symbolic link at `path` to the absolute `target` (Debian policy 10.5: relative within
    /// one top-level folder, absolute from one to another, `/etc` → `/usr`).
    public mutating func link(_ path: String, to target: String) {
        let sameTop = path.split(separator: "/").first == target.split(separator: "/").first
        items[path] = .link(
            target: sameTop ? DebianPackage.relative(from: FileSystem.parentPath(path), to: target) : target)
    }

    /// `target` as seen from `folder`, both absolute: `../../x/y`.
    static func relative(from folder: String, to target: String) -> String {
        let from = folder.split(separator: "/")
        let to = target.split(separator: "/")
        var common = 0
        while common < from.count, common < to.count, from[common] == to[common] { common += 1 }
        let ups = Array(repeating: "..", count: from.count - common)
        return (ups + to[common...].map(String.init)).joined(separator: "/")
    }

    /// The `DEBIAN/control` text.
    func controlText(installedKiB: Int) -> String {
        var lines = [
            "Package: \(control.name)", "Version: \(control.version)", "Architecture: \(control.architecture)",
            "Maintainer: \(control.maintainer)", "Installed-Size: \(installedKiB)", "Section: web",
            "Priority: optional",
        ]
        if !control.suggests.isEmpty { lines.append("Suggests: " + control.suggests.joined(separator: ", ")) }
        if !control.enhances.isEmpty { lines.append("Enhances: " + control.enhances.joined(separator: ", ")) }
        lines.append("Description: \(control.summary)")
        for (index, paragraph) in control.paragraphs.enumerated() {
            if index > 0 { lines.append(" .") }
            lines += DebianPackage.wrap(paragraph, width: 74).map { " " + $0 }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Words of `text` in lines of at most `width` characters.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// Stages the package in a folder of its own (`output/.stage-NAME-RANDOM`: two builds at once
    /// never share one) and builds `output/NAME_VERSION_ARCH.deb` with `dpkg-deb` (files owned by
    /// root, xz, `SOURCE_DATE_EPOCH` from `timestamp`) inside it, renamed into place whole; the
    /// stage is removed after. Returns the .deb's path.
    /// - Throws: `PackError.debianControl` for a name, version or maintainer Debian refuses, a
    ///   field that is not one line (`isOneLine`), a name the distribution uses (`distributionUse(of:)`),
    ///   or one this system knows as another maintainer's package (`dpkg-query`, `apt-cache`);
    ///   `.toolMissing` / `.toolFailed` for dpkg-deb, strip, md5sum.
    public func build(into output: String, timestamp: Int, searchPath: String?) throws(PackError) -> String {
        try validate()
        // Absolute before anything is staged: the tools run inside the stage.
        let output = FileSystem.absolutePath(output, from: FileSystem.currentDirectory() ?? "/")
        let tools = try DebianTools(searchPath: searchPath)
        if let known = tools.maintainer(ofKnownPackage: control.name), known != control.maintainer {
            throw .debianControl(
                "this system already knows a package named \(control.name) (installed or in its archives, "
                    + "maintained by \(PackError.visible(known))): installing this one would replace it; choose "
                    + "another name")
        }
        let stage = output + "/.stage-" + control.name + "-" + FileSystem.hex(Platform.randomBytes(6))
        let deb = "\(output)/\(control.name)_\(control.version)_\(control.architecture).deb"
        // The package is installed as root: a stage others could rename away and replace mid-build
        // would put their files in it. (A sticky folder such as /tmp keeps others' hands off ours.)
        // Checked before anything is made: the folders made below the nearest existing one are ours,
        // so that one is a folder on the way (/tmp passes); then `output` itself, once it exists.
        if let refusal = PathTrust.refusal(toCreate: output) {
            throw .untrustedFolder(refusal.description, fix: refusal.fix)
        }
        do {
            try FileSystem.makeDirectories(output, permissions: 0o755)
        } catch {
            throw .io(error)
        }
        if let refusal = PathTrust.refusal(output) { throw .untrustedFolder(refusal.description, fix: refusal.fix) }
        do {
            try FileSystem.makeDirectory(stage, permissions: 0o755)
        } catch {
            throw .io(error)
        }
        defer { try? FileSystem.removeTree(stage) }
        try write(into: stage, tools: tools)
        // Built beside the stage, then renamed: a reader never sees half a package.
        let built = stage + ".deb"
        defer { try? FileSystem.remove(built) }
        _ = try tools.run(
            tools.dpkgDeb, ["--root-owner-group", "-Zxz", "--build", stage, built], in: output,
            environment: ["SOURCE_DATE_EPOCH": String(timestamp)])
        do {
            try FileSystem.move(built, deb)
        } catch {
            throw .io(error)
        }
        return deb
    }

    /// Writes every item into `stage`, strips the executables, and writes `DEBIAN/` (md5sums,
    /// control with the installed size, conffiles).
    private func write(into stage: String, tools: DebianTools) throws(PackError) {
        var sizes = 0
        var toStrip: [String] = []
        var conffiles: [String] = []
        do {
            for (path, item) in items.sorted(by: { $0.key < $1.key }) {
                let staged = stage + path
                try FileSystem.makeDirectories(FileSystem.parentPath(staged), permissions: 0o755)
                switch item {
                case .file(let bytes, let mode, let strip):
                    try FileSystem.writeAtomically(staged, bytes, permissions: mode)
                    if strip { toStrip.append(staged) }
                    sizes += (bytes.count + 1023) / 1024
                case .conffile(let bytes):
                    try FileSystem.writeAtomically(staged, bytes, permissions: 0o644)
                    conffiles.append(path)
                    sizes += (bytes.count + 1023) / 1024
                case .link(let target):
                    try FileSystem.makeSymbolicLink(staged, pointingTo: target)
                }
            }
            if !toStrip.isEmpty {
                _ = try tools.run(
                    tools.strip,
                    ["--strip-unneeded", "--remove-section=.comment", "--remove-section=.note"] + toStrip,
                    in: stage)
            }
            try FileSystem.makeDirectory(stage + "/DEBIAN", permissions: 0o755)
            let files = items.filter { if case .link = $0.value { false } else { true } }.keys.sorted()
            let sums = try tools.run(tools.md5sum, files.map { String($0.dropFirst()) }, in: stage)
            try FileSystem.writeAtomically(stage + "/DEBIAN/md5sums", sums, permissions: 0o644)
            try FileSystem.writeAtomically(
                stage + "/DEBIAN/control", Array(controlText(installedKiB: max(1, sizes)).utf8), permissions: 0o644)
            if !conffiles.isEmpty {
                try FileSystem.writeAtomically(
                    stage + "/DEBIAN/conffiles", Array((conffiles.joined(separator: "\n") + "\n").utf8),
                    permissions: 0o644)
            }
        } catch let error as SystemError {
            throw .io(error)
        } catch let error as PackError {
            throw error
        } catch {
            throw .toolFailed(String(describing: error))
        }
    }

    /// Refuses what dpkg or lintian would refuse, before anything is written.
    func validate() throws(PackError) {
        guard DebianPackage.isPackageName(control.name) else {
            throw .debianControl(
                "the package name '\(PackError.visible(control.name))' is not a Debian name (lowercase letters, "
                    + "digits, +, -, .; at least two, starting with a letter or digit)")
        }
        guard DebianPackage.isVersion(control.version) else {
            throw .debianControl(
                "the version '\(PackError.visible(control.version))' is not a Debian version (it starts with a digit; "
                    + "letters, digits, ., +, ~)")
        }
        let maintainer = control.maintainer
        guard maintainer.contains(" <"), maintainer.hasSuffix(">"), maintainer.contains("@") else {
            throw .debianControl(
                "the maintainer '\(PackError.visible(maintainer))' is not 'Name <email>'; set \"maintainer\" in bridge.json"
            )
        }
        if let reason = DebianPackage.distributionUse(of: control.name) { throw .debianControl(reason) }
        for field in [control.architecture, control.maintainer, control.summary] + control.enhances + control.suggests {
            try DebianPackage.requireOneLine(field, "a control field")
        }
        for field in control.paragraphs where !DebianPackage.isOneLine(field) {
            try DebianPackage.requireOneLine(field, "a control field")
        }
        for path in items.keys where !path.hasPrefix("/") || path.contains("/../") || path.hasSuffix("/..") {
            throw .debianControl("the package path '\(PackError.visible(path))' is not absolute and plain")
        }
    }
}

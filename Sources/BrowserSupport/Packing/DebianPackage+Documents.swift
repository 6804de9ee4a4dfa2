extension DebianPackage {
    /// `/usr/share/doc/<package>/copyright` in the machine-readable format (DEP-5): ExtensionBridge's
    /// Apache-2.0 alone (`bridgeName` nil), or a bridge's own files under terms its maintainer states,
    /// with the ExtensionBridge code its host links.
    /// - Parameters:
    ///   - bridgeName: the bridge's name (`Upstream-Name`), nil for ExtensionBridge itself.
    ///   - holder: the `Copyright:` line (`2026 Example Ltd`).
    /// - Throws: `PackError.debianControl` for a value that is empty or not one line
    ///   (`isOneLine`): a line break would add fields or paragraphs of its own.
    public static func copyright(bridgeName: String?, holder: String) throws(PackError) -> [UInt8] {
        try requireOneLine(holder, "the copyright holder (bridge.json's \"copyright\")")
        if let bridgeName { try requireOneLine(bridgeName, "the bridge's name") }
        let apache = """
            License: Apache-2.0
             Licensed under the Apache License, Version 2.0 (the "License"); you may not
             use this file except in compliance with the License. You may obtain a copy of
             the License at https://www.apache.org/licenses/LICENSE-2.0
             .
             On Debian systems, the complete text of the Apache License, Version 2.0 can be
             found in "/usr/share/common-licenses/Apache-2.0".

            """
        guard let bridgeName else {
            return Array(
                ("""
                Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
                Upstream-Name: ExtensionBridge

                Files: *
                Copyright: \(holder)
                License: Apache-2.0

                """ + apache).utf8)
        }
        return Array(
            ("""
            Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
            Upstream-Name: \(bridgeName)
            Comment: The host links ExtensionBridge, Apache-2.0 (the second License paragraph).

            Files: *
            Copyright: \(holder)
            License: other
             The terms under which the maintainer distributes \(bridgeName); see its source.

            """ + apache).utf8)
    }

    /// The package's `changelog` entry (gzip it for `/usr/share/doc/<package>/changelog.gz`): its
    /// name, version and maintainer, checked as the control file's (`validate()`), and the release's
    /// entries when there are `notes`.
    /// - Parameters:
    ///   - date: RFC 2822, as `dpkg-parsechangelog` reads it.
    ///   - builtWith: the ExtensionBridge version that built the package.
    ///   - notes: the release's section of its changelog; nil for a bridge that gives none (one line
    ///     says what built the package).
    /// - Throws: what `validate()` throws, and `PackError.debianControl` for a date, version or entry
    ///   that is not one line.
    public func changelog(date: String, builtWith version: String, notes: ReleaseNotes? = nil) throws(PackError)
        -> [UInt8]
    {
        try validate()
        try DebianPackage.requireOneLine(date, "the changelog date")
        try DebianPackage.requireOneLine(version, "the ExtensionBridge version")
        for entry in notes?.groups.flatMap({ [$0.heading] + $0.entries }) ?? [] {
            try DebianPackage.requireOneLine(entry, "a changelog entry")
        }
        let body = notes?.debianLines ?? ["  * Built with extension-bridge pack --deb \(version)."]
        return Array(
            """
            \(control.name) (\(control.version)) unstable; urgency=medium

            \(body.joined(separator: "\n"))

             -- \(control.maintainer)  \(date)

            """.utf8)
    }

    /// Refuses an empty `value` or one that is not one line, naming `what`.
    static func requireOneLine(_ value: String, _ what: String) throws(PackError) {
        guard !value.trimmingSpaces.isEmpty, DebianPackage.isOneLine(value) else {
            throw .debianControl(
                "\(what) '\(PackError.visible(value))' is empty or not one line (a line break, another control "
                    + "character, a line or paragraph separator or a bidi control); a Debian control, copyright or "
                    + "changelog value must be one line: it would add fields or paragraphs of its own")
        }
    }
}

extension String {
    fileprivate var trimmingSpaces: Substring {
        var text = Substring(self)
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return text
    }
}

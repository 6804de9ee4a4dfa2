import BridgeSystem

extension DebianPackage {
    /// Who maintains a package being built: a bridge's own `maintainer` (its bridge.json) when it
    /// names one, else the person building it, from `DEBFULLNAME` and `DEBEMAIL` as `dch` reads them.
    ///
    /// ExtensionBridge has no address of its own, so its own package names whoever builds it rather
    /// than an address nobody answers.
    /// - Parameters:
    ///   - bridge: the bridge being packaged; nil for ExtensionBridge's own package.
    ///   - environment: where `DEBFULLNAME` and `DEBEMAIL` are read.
    /// - Returns: `Name <email>`.
    /// - Throws: `PackError.debianControl` naming the ways to give one, when there is none.
    public static func maintainer(of bridge: BridgeDescription?, environment: Environment) throws(PackError)
        -> String
    {
        if let declared = bridge?.maintainer { return declared }
        if let name = environment["DEBFULLNAME"], let email = environment["DEBEMAIL"] {
            return "\(name) <\(email)>"
        }
        throw .debianControl(
            "no maintainer for the package: set DEBFULLNAME and DEBEMAIL to your name and email address (as "
                + "dch reads them; the package names whoever builds it)"
                + (bridge != nil ? ", or \"maintainer\": \"Your Name <you@example.com>\" in bridge.json" : ""))
    }
}

import BridgeJSON

extension ProjectSpec {
    /// Refuses a `--package-url` pin older than the templates that write the project's core files:
    /// the project would build against sources older than its own core, and `upgrade` would say it
    /// moved to a version it does not use.
    /// - Parameter templates: the version of the ExtensionBridge whose templates write the files.
    /// - Throws: `GeneratorError.invalid` (65) naming both versions and the pin to use.
    public func checkPin(templates: String) throws(GeneratorError) {
        guard case .url(_, let exact) = dependency, let pinned = SemanticVersion(exact),
            let written = SemanticVersion(templates), pinned < written
        else { return }
        throw .invalid(
            "--from \(DisplayText.escaped(exact)) is older than the ExtensionBridge \(templates) whose templates write "
                + "the project's core files: it would build against older sources than its own core; pass --from "
                + "\(templates) (or newer), or use the extension-bridge \(DisplayText.escaped(exact)) to stay there")
    }
}

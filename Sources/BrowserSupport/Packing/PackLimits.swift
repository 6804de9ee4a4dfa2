/// How much `ExtensionPackage` reads from an extension folder. A type of its own because
/// `PackError`'s message for `.tooLarge` names them too, and the error must not depend on the packer.
public enum PackLimits {
    /// The most bytes read from the extension folder, all files together.
    public static let inputBytes = 64 << 20
    /// The most files packed.
    public static let entries = 10_000
    /// How deep folders may nest.
    public static let depth = 32
}

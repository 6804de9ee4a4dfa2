import SharedSuite

/// What the shell should offer for a value or an operand.
public enum ValueCompletion: Equatable, Sendable {
    case none
    case file
    case directory
    /// One of these words.
    case words([String])
    /// A command's name.
    case commands
}

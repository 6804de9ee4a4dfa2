import SharedSuite

/// One operand, in order.
public struct OperandSpec: Equatable, Sendable {
    public var name: String
    public var optional: Bool
    /// Takes every remaining word (`VALUE…`).
    public var variadic: Bool
    public var completion: ValueCompletion

    public init(_ name: String, optional: Bool = false, variadic: Bool = false, completion: ValueCompletion = .none) {
        self.name = name
        self.optional = optional
        self.variadic = variadic
        self.completion = completion
    }

    public var synopsis: String {
        let word = variadic ? name + "…" : name
        return optional ? "[\(word)]" : word
    }
}

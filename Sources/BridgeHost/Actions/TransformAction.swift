import BridgeJSON
import SharedSuite

/// `transform {text}`: the action extension's analog. Applies the app's
/// rules to a piece of text and answers the result, which the extension
/// puts in place of the user's selection.
///
/// By default the rules are the suite's `vocabulary`, with the semantics of
/// page rewriting (`Vocabulary`). An app replaces them by registering its
/// own transform under the same name (a later action with a name replaces
/// an earlier one):
///
/// ```swift
/// let shout = TransformAction { text, _ in text.uppercased() }
/// let program = HostProgram(actions: BuiltInActions.all + [shout])
/// ```
public struct TransformAction: BridgeAction {
    public let name = "transform"
    /// Asking again gives the same answer (a read): resent when a port drops with it in flight.
    public var resendSafe: Bool { true }
    private let transform: (String, ActionContext) throws(SuiteError) -> String

    /// The largest `text`, in UTF-8 bytes; larger is `content_too_large`.
    /// Half the reply limit, so a result that grows stays sendable in most
    /// cases; one that would not fit is `reply_too_large`.
    public static let maxTextBytes = 512 << 10

    /// The built-in transform: the suite's vocabulary.
    public init() { self.transform = TransformAction.vocabulary }

    /// An app's own transform. It gets the text (at most `maxTextBytes`) and
    /// the context, and returns the replacement; a storage failure it throws
    /// becomes `storage_error` or `suite_unreadable`.
    public init(_ transform: @escaping (String, ActionContext) throws(SuiteError) -> String) {
        self.transform = transform
    }

    /// The vocabulary rules, in the order the extension receives them (keys
    /// by UTF-8 bytes), so two keys differing only in case resolve alike.
    public static func vocabulary(_ text: String, in context: ActionContext) throws(SuiteError) -> String {
        // PageState's one rule for which entries count, in the order the rule pages send them.
        let entries = PageState.entries(of: try context.suite.snapshot())
        let pairs = entries.map { ($0.word, $0.replacement) }
        return Vocabulary(pairs).apply(to: text)
    }

    public func perform(_ request: BridgeRequest, in context: ActionContext) -> BridgeReply {
        guard let text = request.string("text") else {
            return .error(.invalidRequest, "transform needs a string text")
        }
        let size = text.utf8.count
        if size > TransformAction.maxTextBytes {
            return .error(
                .contentTooLarge,
                "The text is \(size) bytes; transform takes at most \(TransformAction.maxTextBytes). Select less.",
                ["size": .int(size), "limit": .int(TransformAction.maxTextBytes)])
        }
        do throws(SuiteError) {
            let result = try transform(text, context)
            context.logger.info("transform: \(size) bytes in, \(result.utf8.count) out")
            return .success([
                "text": .string(result), "changed": .bool(!result.unicodeScalars.elementsEqual(text.unicodeScalars)),
            ])
        } catch {
            context.logger.warn("transform: \(error)")
            return .failure(error)
        }
    }
}

import BridgeHost
import SharedSuite

/// `greet {name}` → `{status: "success", greeting, enabled}`: an app's own
/// action. It reads a request member, reads the shared suite, and reports a
/// bad request with a documented code, as every action should.
public struct GreetAction: BridgeAction {
    public let name = "greet"

    public init() {}

    public func perform(_ request: BridgeRequest, in context: ActionContext) -> BridgeReply {
        guard let who = request.string("name"), !who.isEmpty, who.utf8.count <= 200 else {
            return .error(.invalidRequest, "greet needs a name: a string of 1 to 200 UTF-8 bytes")
        }
        do throws(SuiteError) {
            let snapshot = try context.suite.snapshot()
            let greeting = snapshot.string("greeting") ?? "Hello"
            return .success([
                "greeting": .string("\(greeting), \(who)!"), "enabled": .bool(SuiteKeys.isEnabled(snapshot)),
            ])
        } catch {
            return .failure(error)
        }
    }
}

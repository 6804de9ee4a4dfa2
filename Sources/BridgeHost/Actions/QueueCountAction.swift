import BridgeJSON
import SharedSuite

/// `queueCount`: how many items wait for `queue drain`.
public struct QueueCountAction: BridgeAction {
    public let name = "queueCount"
    /// Asking again gives the same answer (a read): resent when a port drops with it in flight.
    public var resendSafe: Bool { true }
    public init() {}

    public func perform(_ request: BridgeRequest, in context: ActionContext) -> BridgeReply {
        do throws(SuiteError) {
            return .success(["count": .int(try context.queue.count())])
        } catch {
            return .failure(error)
        }
    }
}

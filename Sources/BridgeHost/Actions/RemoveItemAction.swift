import BridgeJSON
import SharedSuite

/// `removeItem {itemId}`: the undo of a save. Removes an item the same caller
/// saved, while it still waits in the queue (`itemId`, as `saveContent`
/// answered it: `id` is the request's own); afterwards (drained by the app,
/// removed already) it answers `item_not_found` and says so, and while a
/// drain or watch is handing it over, `item_being_handed_over`.
public struct RemoveItemAction: BridgeAction {
    public let name = "removeItem"
    public init() {}

    public func perform(_ request: BridgeRequest, in context: ActionContext) -> BridgeReply {
        guard let id = request.string("itemId"), !id.isEmpty else {
            return .error(.invalidRequest, "removeItem needs the string itemId that saveContent answered")
        }
        do throws(SuiteError) {
            if try context.queue.withdraw(id: id, source: context.caller.identity) {
                context.logger.info("removed item \(DisplayText.escaped(id, maxBytes: 64)) on request")
                return .success(["message": "Item removed", "itemId": .string(id)])
            }
            return .error(
                .itemNotFound,
                "That item is no longer in the queue: the app has taken it (queue drain) or it was removed already.",
                ["itemId": .string(DisplayText.escaped(id, maxBytes: 64))])
        } catch .itemBeingHandedOver {
            return .error(
                .itemBeingHandedOver,
                "That item is being handed over to the app right now, so it was not removed; "
                    + "if the app does not take it, it stays in the queue and can be removed then.",
                ["itemId": .string(DisplayText.escaped(id, maxBytes: 64))])
        } catch {
            context.logger.warn("removeItem: \(error)")
            return .failure(error)
        }
    }
}

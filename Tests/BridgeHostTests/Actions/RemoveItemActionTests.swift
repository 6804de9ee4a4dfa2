import BridgeJSON
import BridgeProtocol
import BridgeSystem
import SharedSuite
import TestSupport
import Testing

@testable import BridgeHost

/// `removeItem`: undo of a save, for the caller that saved it only.
@Suite struct RemoveItemActionTests {
    @Test func removeItem_removesTheCallersItem_thenSaysItIsGone() {
        let (endpoint, _, queue) = makeEndpoint()
        let id = endpoint.handle(["action": "saveContent", "url": "https://a/", "content": "c", "key": "k"])["itemId"]
        let removed = endpoint.handle(["action": "removeItem", "itemId": id ?? .null])
        #expect(removed["status"] == "success")
        #expect(queue.items.isEmpty)
        let again = endpoint.handle(["action": "removeItem", "itemId": id ?? .null])
        #expect(again["code"] == "item_not_found")
        #expect(again["message"]?.stringValue?.contains("drain") == true)
        // Undo forgets the key: the same save can be made again.
        let resaved = endpoint.handle(["action": "saveContent", "url": "https://a/", "content": "c", "key": "k"])
        #expect(resaved["duplicate"] == false)
        #expect(queue.items.count == 1)
    }

    @Test func removeItem_ofAnotherCallersItem_isNotFound_andKeepsIt() throws {
        let (endpoint, _, queue) = makeEndpoint()
        let other = try queue.append(url: "https://a/", title: nil, content: "c", source: "other@addon")
        #expect(endpoint.handle(["action": "removeItem", "itemId": .string(other.id)])["code"] == "item_not_found")
        #expect(endpoint.handle(["action": "removeItem"])["code"] == "invalid_request")
        #expect(endpoint.handle(["action": "removeItem", "itemId": 5])["code"] == "invalid_request")
        #expect(queue.items.count == 1)
    }
}

import BridgeJSON
import BridgeProtocol
import BridgeSystem
import SharedSuite
import TestSupport
import Testing

@testable import BridgeHost

@Suite struct QueueCountActionTests {
    @Test func queueCount_countsItems() throws {
        let (endpoint, _, queue) = makeEndpoint()
        _ = try queue.append(url: "u", title: nil, content: "c", source: "s")
        #expect(endpoint.handle(["action": "queueCount"]) == ["status": "success", "count": 1])
    }

    @Test func queueCount_aQueueThatCannotBeRead_isAStorageError() {
        let (endpoint, _, queue) = makeEndpoint()
        queue.failure = .io(SystemError("opendir", "/c/queue", code: Errno.permissionDenied))
        #expect(endpoint.handle(["action": "queueCount"])["code"] == "storage_error")
    }
}

import BridgeSystem
import Testing

@testable import SharedSuite

@Suite struct QueueLimitsTests {
    @Test func environment_overridesEachQuota_andIgnoresWhatIsNotACount() {
        let set = QueueLimits(
            environment: Environment([
                "EXTENSION_BRIDGE_QUEUE_MAX_ITEMS": "3", "EXTENSION_BRIDGE_QUEUE_MAX_BYTES": "0",
                "EXTENSION_BRIDGE_ITEM_MAX_BYTES": "100",
            ]))
        #expect(set.maxItems == 3 && set.maxBytes == 0 && set.maxItemBytes == 100)
        #expect(set.inlineBytes == QueueLimits().inlineBytes)
        let bad = QueueLimits(
            environment: Environment([
                "EXTENSION_BRIDGE_QUEUE_MAX_ITEMS": "-1", "EXTENSION_BRIDGE_QUEUE_MAX_BYTES": "lots",
                "EXTENSION_BRIDGE_ITEM_MAX_BYTES": "1e6",
            ]))
        #expect(bad == QueueLimits())
        #expect(QueueLimits(environment: Environment([:])) == QueueLimits())
    }
}

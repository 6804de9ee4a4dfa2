import BridgeSystem
import Testing

@Suite struct WallTimeLocalTimeTests {
    @Test func theTimeOfDay_isHoursMinutesSecondsAndMilliseconds() {
        let text = WallTime(seconds: 1_800_000_000, nanoseconds: 5_000_000).localTimeOfDay
        #expect(text.count == 12)
        #expect(text.hasSuffix(".005"))
        let shape = Array(text).enumerated().allSatisfy { index, character in
            [2, 5].contains(index) ? character == ":" : index == 8 ? character == "." : character.isNumber
        }
        #expect(shape)
    }
}

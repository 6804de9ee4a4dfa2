import BridgeJSON
import Foundation
import TestSupport
import Testing

/// doctor's `suite` row, through the built binaries: a vocabulary the host cannot read is a
/// warning naming the key, the type found and the `write` that fixes it; that fix, pasted, clears it.
@Suite struct DoctorSuiteRowTests {
    @Test func vocabularyOfTheWrongType_isAWarningWhoseFixWorks() throws {
        let s = try InstallDoctorTests.Setup()
        defer { s.tmp.remove() }
        #expect(try s.cli("write", "vocabulary", "-array", "blue", "blauw").status == 0)
        let doctor = try s.cli("doctor", "--json")
        let row = (try JSONParser.parse(doctor.stdout)["checks"]?.arrayValue ?? []).first { $0["scope"] == "suite" }
        #expect(row?["status"] == "warning", "\(doctor.stdout)")
        #expect(row?["detail"]?.stringValue?.hasPrefix("vocabulary is a value of type array") == true)
        let fix = row?["fix"]?.stringValue ?? ""
        #expect(fix == "extension-bridge write vocabulary -dict blue blauw red rood")
        #expect(try runProcess("/bin/sh", ["-c", fix], environment: s.env).status == 0)
        let again = try s.cli("doctor")
        #expect(again.outText.contains("ok       " + s.tmp.path + "/c/suite.json: the keys the host reads"))
        #expect(again.outText.contains("the extension is off (turn it on with: extension-bridge enable)"))
    }
}

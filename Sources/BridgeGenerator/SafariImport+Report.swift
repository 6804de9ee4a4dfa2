import BridgeJSON

extension SafariImport {
    /// What `new --from-safari` changed and found, for its report.
    public struct Report: Equatable, Sendable {
        /// Each change made, one sentence each.
        public var changes: [String] = []
        /// Each difference found in the author's files or manifest that works differently here.
        public var findings: [Finding] = []
        /// Each native message the extension sends that the scan found, with the action made for it.
        public var messages: [SafariMessages.Message] = []

        /// Records a change.
        mutating func change(_ sentence: String) { changes.append(sentence) }

        /// Records a finding.
        mutating func find(
            _ file: String, _ line: Int, _ api: String, _ equivalent: SafariAPI.Equivalent, _ advice: String
        ) {
            findings.append(Finding(file: file, line: line, api: api, equivalent: equivalent, advice: advice))
        }
    }

    /// A difference found in the author's code or manifest (`SafariAPI.Finding`).
    public typealias Finding = SafariAPI.Finding
}

extension SafariImport.Report {
    /// The report as lines for a terminal: every name from the author's files escaped (`DisplayText`).
    public var lines: [String] {
        var out = ["changes:"]
        out += changes.map { "  - " + $0 }
        if findings.isEmpty {
            out.append("Safari differences found: none that work differently here")
        } else {
            out.append("Safari differences found (equivalent here: yes, differs, no):")
            for finding in findings {
                let place = finding.line > 0 ? "\(finding.file):\(finding.line)" : finding.file
                out.append(
                    "  - \(DisplayText.escaped(place)): \(DisplayText.escaped(finding.api)): "
                        + "\(finding.equivalent.rawValue). \(DisplayText.escaped(finding.advice))")
            }
        }
        if messages.isEmpty {
            out.append("native messages found: none")
        } else {
            out.append("native messages found (each has an action that answers not_implemented until you write it):")
            for message in messages {
                out.append(
                    "  - \(DisplayText.escaped(message.shape)) from "
                        + message.places.map { DisplayText.escaped($0) }.joined(separator: ", ") + " → "
                        + (message.action.map { DisplayText.escaped($0) } ?? "no action: " + message.why))
            }
        }
        return out
    }

    /// The report as JSON (`new --json`).
    public var json: JSONValue {
        [
            "changes": .array(changes.map(JSONValue.string)),
            "findings": .array(
                findings.map {
                    [
                        "file": .string($0.file), "line": .int($0.line), "api": .string($0.api),
                        "equivalent": .string($0.equivalent.rawValue), "advice": .string($0.advice),
                    ]
                }),
            "messages": .array(
                messages.map {
                    [
                        "shape": .string($0.shape), "key": $0.key.map(JSONValue.string) ?? .null,
                        "name": $0.name.map(JSONValue.string) ?? .null,
                        "places": .array($0.places.map(JSONValue.string)),
                        "action": $0.action.map(JSONValue.string) ?? .null,
                    ]
                }),
        ]
    }
}

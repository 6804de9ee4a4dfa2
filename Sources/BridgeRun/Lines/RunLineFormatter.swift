import BridgeProtocol
import BridgeSystem

/// The terminal lines of `run`, one event at a time: a pure function of the event
/// and the time, so what a person reads is checked by unit tests.
///
/// ```
/// 14:03:07.512 → chrome-extension://…/ getPageState #3 57 B
/// 14:03:07.514 ← chrome-extension://…/ getPageState #3 success 312 B 1.9 ms
/// 14:03:07.600 ← chrome-extension://…/ settingsChanged (push) 1204 B
/// 14:03:07.700 host[4711] warn: the suite file is not JSON …
/// 14:03:08.001 [content http://127.0.0.1:8000/] uncaught Error: boom (content/content.js:12)
/// 14:03:09.000 run: reloaded the extension (content/content.js changed) and 1 page
/// ```
public struct RunLineFormatter: Sendable {
    /// With bodies (secret values hidden by the host), every console level, and each host's start and end.
    public var verbose: Bool

    public init(verbose: Bool) { self.verbose = verbose }

    /// The lines for `event` at `time`; none for what is shown only with `verbose`.
    public func lines(_ event: RunEvent, at time: WallTime) -> [String] {
        let stamp = time.localTimeOfDay
        switch event {
        case .host(let record): return host(record, stamp: stamp)
        case .console(let message):
            guard verbose || message.kind.isError else { return [] }
            return ["\(stamp) \(RunLineFormatter.tag(message.origin)) \(console(message))"]
        case .status(let text): return ["\(stamp) run: \(text)"]
        case .problem(let text): return ["\(stamp) run: problem: \(text)"]
        case .build(let text): return ["\(stamp) build: \(text)"]
        }
    }

    private func host(_ record: TraceRecord, stamp: String) -> [String] {
        var out: [String] = []
        if record.dropped > 0 {
            out.append(
                "\(stamp) host[\(record.processID)]: \(record.dropped) earlier records were lost (run fell behind)")
        }
        let caller = record.caller.isEmpty ? "(unknown caller)" : record.caller
        let action = record.action.isEmpty ? "?" : record.action
        let id = record.id.isEmpty ? "" : " #\(record.id)"
        switch record.kind {
        case .request:
            out.append("\(stamp) → \(caller) \(action)\(id) \(record.bytes) B")
        case .reply:
            let status = record.status.isEmpty ? "-" : record.status
            out.append(
                "\(stamp) ← \(caller) \(action)\(id) \(status) \(record.bytes) B "
                    + RunLineFormatter.milliseconds(record.microseconds))
        case .push:
            out.append("\(stamp) ← \(caller) \(action) (push) \(record.bytes) B")
        case .log:
            out.append("\(stamp) host[\(record.processID)] \(String(decoding: record.body, as: UTF8.self))")
            return out
        case .start:
            if verbose {
                out.append("\(stamp) host[\(record.processID)] started for \(caller), group \(record.status)")
            }
            return out
        case .end:
            if verbose { out.append("\(stamp) host[\(record.processID)] ended, exit status \(record.status)") }
            return out
        }
        if verbose && !record.body.isEmpty {
            var body = "    " + String(decoding: record.body, as: UTF8.self)
            if record.bodyTruncated { body += " … (first \(record.body.count) of \(record.bytes) bytes)" }
            out.append(body)
        }
        return out
    }

    private func console(_ message: ConsoleMessage) -> String {
        let location = message.location.isEmpty ? "" : " (\(message.location))"
        return "\(message.kind.rawValue) \(message.text)\(location)"
    }

    /// `[background]`, `[popup]`, `[content URL]`, `[page PATH]`.
    public static func tag(_ origin: ConsoleMessage.Origin) -> String {
        switch origin {
        case .background: return "[background]"
        case .popup: return "[popup]"
        case .content(let page): return page.isEmpty ? "[content]" : "[content \(page)]"
        case .page(let path): return "[page \(path)]"
        }
    }

    /// `1.9 ms`: one decimal, rounded half up.
    public static func milliseconds(_ microseconds: Int64) -> String {
        let tenths = (max(0, microseconds) + 50) / 100
        return "\(tenths / 10).\(tenths % 10) ms"
    }
}

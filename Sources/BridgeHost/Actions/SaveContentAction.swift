import BridgeJSON
import SharedSuite

/// `saveContent {content, url, title?, kind?, pageUrl?, key?}`: appends an
/// item to the pending queue.
public struct SaveContentAction: BridgeAction {
    public let name = "saveContent"
    public init() {}

    /// The URL schemes an item may have (its `url` and `pageUrl`): pages a
    /// person can open again. `javascript:`, `data:` and every other scheme
    /// are refused with `url_scheme_not_allowed`.
    public static let allowedSchemes: Set<String> = ["http", "https", "file"]
    /// The longest idempotency key, in UTF-8 bytes.
    public static let maxKeyBytes = 128

    public func perform(_ request: BridgeRequest, in context: ActionContext) -> BridgeReply {
        guard let content = request.string("content"), let url = request.string("url") else {
            return .error(.missingField, "Missing content or URL")
        }
        var new = NewQueueItem(url: url, title: nil, content: content, source: context.caller.identity)
        switch request["title"] {
        case nil, .null?: break
        case .string(let t)?: new.title = t
        default: return .error(.invalidRequest, "title must be a string")
        }
        switch request["kind"] {
        case nil, .null?: break
        case .string(let k)? where QueueItem.Kind(rawValue: k) != nil: new.kind = QueueItem.Kind(rawValue: k) ?? .page
        default: return .error(.invalidRequest, "kind must be \"page\", \"link\" or \"selection\"")
        }
        switch request["pageUrl"] {
        case nil, .null?: break
        case .string(let p)?: new.pageURL = p
        default: return .error(.invalidRequest, "pageUrl must be a string")
        }
        switch request["key"] {
        case nil, .null?: break
        case .string(let k)? where !k.isEmpty && k.utf8.count <= SaveContentAction.maxKeyBytes: new.key = k
        default:
            return .error(
                .invalidRequest, "key must be a string of 1 to \(SaveContentAction.maxKeyBytes) UTF-8 bytes")
        }
        for (field, value) in [("url", url), ("pageUrl", new.pageURL)] {
            guard let value else { continue }
            let scheme = SaveContentAction.scheme(of: value)
            if !SaveContentAction.allowedSchemes.contains(scheme ?? "") {
                let shown = scheme.map { "\"\($0):\"" } ?? "no scheme"
                return .error(
                    .urlSchemeNotAllowed,
                    "\(field) has \(shown); only http:, https: and file: pages are saved. Nothing was queued.",
                    ["field": .string(field)])
            }
            // A browser's URL never holds one (it percent-encodes them); an app would be handed it raw.
            if value.unicodeScalars.contains(where: { DisplayText.isControl($0.value) }) {
                return .error(
                    .invalidRequest,
                    "\(field) holds a control character or a bidi control, which a browser's URL never does. "
                        + "Nothing was queued.", ["field": .string(field)])
            }
        }
        do throws(SuiteError) {
            let result = try context.queue.append(new)
            let item = result.item
            // Sizes only: saved content never goes to the log.
            context.logger.info(
                "\(result.duplicate ? "already saved" : "saved") item \(item.id) (\(item.contentBytes) bytes)")
            if !result.duplicate { SeedSaveKeys.update(url: url, content: content, in: context) }
            // A duplicate added nothing: `itemId` names the earlier item
            // (waiting still), which is not this request's to undo.
            return .success([
                "message": .string(result.duplicate ? "Already saved: nothing added" : "Content saved"),
                "itemId": .string(item.id), "kind": .string(new.kind.rawValue),
                "duplicate": .bool(result.duplicate), "added": .bool(!result.duplicate),
            ])
        } catch {
            context.logger.warn("saveContent: \(error)")
            return .failure(error)
        }
    }

    /// The scheme of `url` in lower case (RFC 3986: a letter, then letters,
    /// digits, `+`, `-`, `.`, up to the first `:`); nil when there is none.
    /// Leading spaces or control characters mean no scheme: refused.
    static func scheme(of url: String) -> String? {
        var scheme: [UInt8] = []
        for byte in url.utf8 {
            if byte == UInt8(ascii: ":") { return scheme.isEmpty ? nil : String(decoding: scheme, as: UTF8.self) }
            let lower = (byte >= 0x41 && byte <= 0x5A) ? byte + 0x20 : byte
            let letter = lower >= 0x61 && lower <= 0x7A
            let other = (byte >= 0x30 && byte <= 0x39) || byte == 0x2B || byte == 0x2D || byte == 0x2E
            guard letter || (!scheme.isEmpty && other), scheme.count < 32 else { return nil }
            scheme.append(lower)
        }
        return nil
    }
}

/// The native messages an imported extension sends: every
/// `sendNativeMessage` call the scan can follow, directly or through the
/// extension's own wrapper functions (`function send(message) {
/// browser.runtime.sendNativeMessage(message) }`), whose message is an object
/// literal naming itself under a key (`{type: "syncGet"}`,
/// `{message: "getSettings"}`, `{request: "copy", payload}`).
///
/// Its Safari handler switched on that name; here each name gets a
/// `BridgeAction` (`SafariMessageActions`) that answers `not_implemented`
/// until the author writes it.
public enum SafariMessages {
    /// One message name (or one message the scan could not name), with where it is sent from.
    public struct Message: Equatable, Sendable {
        /// The member that names it (`type`), when found.
        public var key: String?
        /// Its name (`syncGet`), when found.
        public var name: String?
        /// The members as written, for the report: `{type: "syncGet", payload, updatedAt}`.
        public var shape: String
        /// `file:line` of each send.
        public var places: [String]
        /// The generated action's Swift file, or nil.
        public var action: String?
        /// Why there is no action (a message built elsewhere, a string, no name).
        public var why: String = ""
    }

    /// Names of members a handler usually switches on, preferred in this order.
    static let nameKeys = ["message", "type", "action", "request", "command", "cmd", "method", "name", "kind", "event"]

    /// The messages sent from `scripts` (path → bytes): one entry per name (every place it is sent
    /// from), then one per send whose message could not be named, in the order found.
    static func scan(_ scripts: [(path: String, bytes: [UInt8])]) -> [Message] {
        let parsed = scripts.map { (path: $0.path, tokens: JavaScriptTokens($0.bytes)) }
        let senders = wrappers(parsed)
        var named: [Message] = []
        var unnamed: [Message] = []
        for (path, tokens) in parsed {
            // Inside a wrapper, the message is its parameter: its callers' messages are the ones to name.
            let wrapperBodies = definitions(tokens).filter { senders[$0.name] != nil }.map(\.body)
            for (index, token) in tokens.tokens.enumerated()
            where token.kind == .identifier && tokens.isPunctuation(index + 1, "(") {
                guard let parameter = senders[token.text], !isDefinition(tokens, at: index) else { continue }
                let insideWrapper = wrapperBodies.contains { $0.contains(index) }
                let arguments = tokens.arguments(at: index + 1)
                let place = "\(path):\(token.line)"
                // Of the arguments that may be the message, those that name one; else the first.
                let candidates = messageArguments(tokens, arguments, parameter: parameter).map {
                    describe(tokens, declared(tokens, $0, before: index) ?? $0)
                }
                let chosen =
                    candidates.contains { $0.name != nil }
                    ? candidates.filter { $0.name != nil } : Array(candidates.prefix(1))
                for var message in chosen {
                    message.places = [place]
                    if let name = message.name, let existing = named.firstIndex(where: { $0.name == name }) {
                        if !named[existing].places.contains(place) { named[existing].places.append(place) }
                    } else if message.name != nil {
                        named.append(message)
                    } else if !insideWrapper && !unnamed.contains(where: { $0.places == [place] }) {
                        unnamed.append(message)
                    }
                }
            }
        }
        return named + unnamed
    }

    /// `sendNativeMessage`, and each function of the extension that passes one of its
    /// parameters on to a sender as the message: name → that parameter's index (-1: a real
    /// `sendNativeMessage`, whose message is the first or second argument).
    static func wrappers(_ parsed: [(path: String, tokens: JavaScriptTokens)]) -> [String: Int] {
        var senders = ["sendNativeMessage": -1]
        let functions = parsed.map { definitions($0.tokens) }
        for _ in 0..<4 {
            var found = false
            for (file, (_, tokens)) in parsed.enumerated() {
                for index in tokens.tokens.indices where tokens.isPunctuation(index + 1, "(") {
                    guard let token = tokens[index], token.kind == .identifier, let parameter = senders[token.text],
                        !isDefinition(tokens, at: index),
                        // The innermost function around the call: does it pass a parameter on as the message?
                        let around = functions[file].filter({ $0.body.contains(index) && $0.name != token.text })
                            .min(by: { $0.body.count < $1.body.count }),
                        senders[around.name] == nil
                    else { continue }
                    for argument in messageArguments(tokens, tokens.arguments(at: index + 1), parameter: parameter)
                    where argument.count == 1 {
                        if let name = tokens[argument.lowerBound]?.text,
                            let position = around.parameters.firstIndex(of: name)
                        {
                            senders[around.name] = position
                            found = true
                        }
                    }
                }
            }
            if !found { break }
        }
        return senders
    }

    struct Definition {
        var name: String
        var parameters: [String]
        var body: Range<Int>
    }

    /// `function name(a, b) {…}`, `name = function (a) {…}`, `name = (a) => {…}` / `a => …`.
    static func definitions(_ tokens: JavaScriptTokens) -> [Definition] {
        var out: [Definition] = []
        for (index, token) in tokens.tokens.enumerated() where token.kind == .identifier {
            var name: String?
            var open: Int?
            if token.text == "function", let next = tokens[index + 1], next.kind == .identifier,
                tokens.isPunctuation(index + 2, "(")
            {
                (name, open) = (next.text, index + 2)
            } else if tokens.isPunctuation(index + 1, "="), !tokens.isPunctuation(index + 2, "=") {
                var start = index + 2
                if tokens.isIdentifier(start, "async") { start += 1 }
                if tokens.isIdentifier(start, "function") {
                    start += 1
                    if tokens[start]?.kind == .identifier { start += 1 }
                }
                if tokens.isPunctuation(start, "(") {
                    (name, open) = (token.text, start)
                } else if let single = tokens[start], single.kind == .identifier, tokens.isPunctuation(start + 1, "="),
                    tokens.isPunctuation(start + 2, ">")
                {
                    out.append(
                        Definition(
                            name: token.text, parameters: [single.text], body: (start + 3)..<bodyEnd(tokens, start + 3))
                    )
                    continue
                }
            }
            guard let name, let open else { continue }
            let parameters = tokens.arguments(at: open).map { range in tokens[range.lowerBound]?.text ?? "" }
            var bodyStart = tokens.skipBalanced(from: open)
            if tokens.isPunctuation(bodyStart, "=") && tokens.isPunctuation(bodyStart + 1, ">") { bodyStart += 2 }
            out.append(Definition(name: name, parameters: parameters, body: bodyStart..<bodyEnd(tokens, bodyStart)))
        }
        return out
    }

    /// The end of a body starting at `start`: its closing brace, or for an expression body the first
    /// `,` or `;` outside brackets, the bracket around it, or the end of the line.
    static func bodyEnd(_ tokens: JavaScriptTokens, _ start: Int) -> Int {
        if tokens.isPunctuation(start, "{") { return tokens.skipBalanced(from: start) }
        let line = tokens[start]?.line ?? 0
        var end = start
        while let token = tokens[end], token.line == line {
            if tokens.isOpening(end) {
                end = tokens.skipBalanced(from: end)
            } else if token.kind == .punctuation && [",", ";", ")", "]", "}"].contains(token.text) {
                break
            } else {
                end += 1
            }
        }
        return end
    }

    /// For a message passed by name (`sendNativeMessage(message)`), the object literal the name was last
    /// given before the call (`const message = {type: "x"}`): a common way to build one.
    static func declared(_ tokens: JavaScriptTokens, _ argument: Range<Int>, before call: Int) -> Range<Int>? {
        guard argument.count == 1, let name = tokens[argument.lowerBound], name.kind == .identifier else { return nil }
        var index = call - 1
        while index >= 0 {
            if tokens.isIdentifier(index, name.text) && tokens.isPunctuation(index + 1, "=")
                && !tokens.isPunctuation(index + 2, "=") && !tokens.isPunctuation(index - 1, ".")
            {
                guard tokens.isPunctuation(index + 2, "{") else { return nil }
                return (index + 2)..<tokens.skipBalanced(from: index + 2)
            }
            index -= 1
        }
        return nil
    }

    /// True when the call-looking name at `index` is a definition (`function send(…)`, `send(…) {`).
    static func isDefinition(_ tokens: JavaScriptTokens, at index: Int) -> Bool {
        if tokens.isIdentifier(index - 1, "function") { return true }
        let close = tokens.skipBalanced(from: index + 1)
        return tokens.isPunctuation(close, "{") && !tokens.isPunctuation(index - 1, ".")
    }

    /// The arguments that may be the message: for a real `sendNativeMessage`, an object literal
    /// among the first two (Safari's `(message)`, `(appId, message)`), else the second after a
    /// string and the first otherwise; for a wrapper, its message parameter.
    static func messageArguments(_ tokens: JavaScriptTokens, _ arguments: [Range<Int>], parameter: Int) -> [Range<Int>]
    {
        if parameter >= 0 { return arguments.indices.contains(parameter) ? [arguments[parameter]] : [] }
        let firstTwo = Array(arguments.prefix(2))
        if let literal = firstTwo.first(where: { tokens.isPunctuation($0.lowerBound, "{") }) { return [literal] }
        guard let first = firstTwo.first else { return [] }
        let isAppID = first.count == 1 && tokens[first.lowerBound]?.kind == .string
        if firstTwo.count == 2, !isFunction(tokens, firstTwo[1]) {
            return isAppID ? [firstTwo[1]] : [firstTwo[1], first]
        }
        return [first]
    }

    static func isFunction(_ tokens: JavaScriptTokens, _ range: Range<Int>) -> Bool {
        guard let first = tokens[range.lowerBound] else { return false }
        if first.kind == .identifier && (first.text == "function" || first.text == "async") { return true }
        return range.contains { tokens.isPunctuation($0, "=") && tokens.isPunctuation($0 + 1, ">") }
    }

    /// What an argument says about the message: its name under a key when it is an object literal.
    static func describe(_ tokens: JavaScriptTokens, _ range: Range<Int>) -> Message {
        guard tokens.isPunctuation(range.lowerBound, "{") else {
            let text = range.compactMap { tokens[$0]?.text }.joined().prefix(60)
            let isString = range.count == 1 && tokens[range.lowerBound]?.kind == .string
            return Message(
                shape: isString ? "\"\(text)\"" : String(text), places: [],
                why: isString
                    ? "a string, not an object: the host answers objects only; send {message: …} instead"
                    : "built elsewhere: the scan could not see its name; give its action a messageKey by hand")
        }
        let members = objectMembers(tokens, range)
        let strings = members.filter { $0.value != nil }
        let chosen = nameKeys.lazy.compactMap { key in strings.first { $0.key == key } }.first ?? strings.first
        let shape =
            "{"
            + members.map { member in member.value.map { "\(member.key): \"\($0)\"" } ?? member.key }
            .joined(separator: ", ") + "}"
        guard let chosen, let name = chosen.value else {
            return Message(shape: shape, places: [], why: "no member names it with a string: the host cannot route it")
        }
        return Message(key: chosen.key, name: name, shape: shape, places: [])
    }

    /// The members of the object literal at `range`: each key with its string value when it is a
    /// plain string literal.
    static func objectMembers(_ tokens: JavaScriptTokens, _ range: Range<Int>) -> [(key: String, value: String?)] {
        var out: [(String, String?)] = []
        var index = range.lowerBound + 1
        let end = range.upperBound - 1
        while index < end {
            guard let token = tokens[index] else { break }
            if token.kind == .punctuation && token.text == "." {  // a spread: `...rest`
                index += 1
                continue
            }
            if token.kind == .identifier || token.kind == .string {
                var value: String?
                if tokens.isPunctuation(index + 1, ":"), let next = tokens[index + 2], next.kind == .string,
                    tokens.isPunctuation(index + 3, ",") || index + 3 >= end
                {
                    value = next.text
                }
                out.append((token.text, value))
            }
            // Skip to the next member.
            while index < end && !tokens.isPunctuation(index, ",") {
                index = tokens.isOpening(index) ? tokens.skipBalanced(from: index) : index + 1
            }
            index += 1
        }
        return out
    }
}

/// The Swift side of an imported extension's native messages: for each
/// message name `SafariMessages` found, a `BridgeAction` in
/// `Sources/<Name>Actions/SafariMessages/`, registered in the host (and the
/// Safari handler), that answers `not_implemented` until the author writes
/// what their `SafariWebExtensionHandler` answered: the first run shows which
/// messages still need Swift code. The files are the app's (`upgrade` never
/// touches `Sources/`).
enum SafariMessageActions {
    /// The folder of the actions inside the actions target.
    static let folder = "SafariMessages"
    /// The registry's type: `SafariMessages.actions` is what the host registers.
    static let registry = "SafariMessages"
    /// Type names the generated project already uses.
    static let taken: Set<String> = ["AppInfoAction", "AppConfiguration", registry]
    /// What the host's `main.swift` and the Safari handler register, as the templates write it.
    static let registration = "BuiltInActions.all + [AppInfoAction()]"

    /// `messages` with the Swift file each name's action is in (names the host answers itself, like
    /// the seed's `request:enabled_status`, get none).
    static func assigned(_ messages: [SafariMessages.Message], spec: ProjectSpec) -> [SafariMessages.Message] {
        var used = taken
        return messages.map { message in
            var message = message
            guard let name = message.name else { return message }
            if name == "request:enabled_status" {
                message.why = "the host answers it itself (the seed's legacy message)"
                return message
            }
            var type = typeName(name)
            var counter = 2
            while used.contains(type) {
                type = typeName(name) + String(counter)
                counter += 1
            }
            used.insert(type)
            message.action = "Sources/\(spec.actionsTarget)/\(folder)/\(type).swift"
            return message
        }
    }

    /// `getInputSource` → `GetInputSourceAction`; anything but ASCII letters and digits separates words.
    static func typeName(_ name: String) -> String {
        var out = ""
        var upper = true
        for scalar in name.unicodeScalars {
            let isLetter = (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z")
            let isDigit = scalar >= "0" && scalar <= "9"
            guard isLetter || isDigit else {
                upper = true
                continue
            }
            out += upper ? String(scalar).uppercased() : String(scalar)
            upper = false
        }
        if out.isEmpty || out.first?.isNumber == true { out = "Message" + out }
        return String(out.prefix(60)) + "Action"
    }

    /// The project's files with the message actions added and registered; unchanged without any.
    static func adding(_ messages: [SafariMessages.Message], to files: [GeneratedFile], spec: ProjectSpec)
        -> [GeneratedFile]
    {
        let actions = messages.filter { $0.action != nil }
        guard !actions.isEmpty else { return files }
        var out = files.map { file -> GeneratedFile in
            guard
                file.path == "Sources/\(spec.hostProduct)/main.swift"
                    || file.path == "Sources/\(spec.safariTarget)/SafariWebExtensionHandler.swift"
            else { return file }
            let text = String(decoding: file.bytes, as: UTF8.self)
            return GeneratedFile(
                file.path, text: text.replacingAll(registration, with: registration + " + \(registry).actions"),
                permissions: file.permissions)
        }
        for message in actions {
            if let path = message.action {
                out.append(GeneratedFile(path, text: actionFile(message, spec: spec, path: path)))
            }
        }
        out.append(
            GeneratedFile("Sources/\(spec.actionsTarget)/\(folder)/\(registry).swift", text: registryFile(actions)))
        return out
    }

    static func typeName(ofFile path: String) -> String {
        String(ExtensionPath.name(path).dropLast(".swift".count))
    }

    static func registryFile(_ actions: [SafariMessages.Message]) -> String {
        let list = actions.compactMap { $0.action.map(typeName(ofFile:)) }.map { "        \($0)()," }
        return """
            import BridgeHost

            /// The native messages your Safari extension sends, as `extension-bridge new --from-safari`
            /// found them in its JavaScript: one action each, beside this file, registered in the
            /// host's main.swift and the Safari handler. Each answers `not_implemented` until you
            /// write it; add any message the import did not find the same way.
            public enum \(registry) {
                public static var actions: [BridgeAction] {
                    [
            \(list.map { "    " + $0 }.joined(separator: "\n"))
                    ]
                }
            }

            """
    }

    static func actionFile(_ message: SafariMessages.Message, spec: ProjectSpec, path: String) -> String {
        let name = message.name ?? ""
        let key = message.key ?? "message"
        let places = message.places.map(comment).joined(separator: ", ")
        return """
            import BridgeHost

            /// `\(comment(message.shape))`: a native message your Safari extension sends
            /// (\(places)), found by `extension-bridge new --from-safari`.
            ///
            /// NOT WRITTEN YET: it answers `not_implemented` until you write here what your
            /// `SafariWebExtensionHandler` answered to it. `request` is the whole message as sent
            /// (`request.string("\(comment(key))")` is \(ProjectTemplate.swiftLiteral(name))). Answer what the
            /// extension's code reads: `.value(…)` is exactly that value (an object, an array, a string),
            /// as your handler's reply was; `.success([…])` adds `"status": "success"` to its members.
            public struct \(typeName(ofFile: path)): BridgeAction {
                public let name = \(ProjectTemplate.swiftLiteral(name))
                /// Your messages name themselves with this member, not ExtensionBridge's `action`.
                public let messageKey: String? = \(ProjectTemplate.swiftLiteral(key))

                public init() {}

                public func perform(_ request: BridgeRequest, in context: ActionContext) -> BridgeReply {
                    .error(.notImplemented, \(ProjectTemplate.swiftLiteral("\(name) is not implemented yet: write it in \(path)")))
                }
            }

            """
    }

    /// Text from the author's files for a `///` comment: one line, printable ASCII, the rest as `\u{…}`.
    static func comment(_ text: String) -> String {
        String(ProjectTemplate.swiftLiteral(text).dropFirst().dropLast())
    }
}

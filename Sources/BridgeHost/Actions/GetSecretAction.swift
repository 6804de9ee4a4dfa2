import BridgeJSON
import BridgeProtocol
import SharedSuite

/// `getSecret {name}`: the value of a secret the app marked shared
/// (`extension-bridge secret set NAME --shared`), from the user's Secret
/// Service or Keychain.
///
/// Only allowed callers reach it (the host refuses everyone else before any
/// request). A secret not marked shared is `secret_not_shared`, a missing one
/// `secret_not_found`, no store `secrets_unavailable`. The value goes into
/// the reply and nowhere else: the log names the secret and the outcome, never
/// the value.
public struct GetSecretAction: BridgeAction {
    public let name = "getSecret"
    public init() {}

    public func perform(_ request: BridgeRequest, in context: ActionContext) -> BridgeReply {
        guard let secretName = request.string("name") else {
            return .error(.invalidRequest, "getSecret needs a string 'name'")
        }
        do throws(SecretError) {
            try SecretName.validate(secretName)
            if let value = try context.secrets.value(named: secretName, sharedOnly: true) {
                // `secret set` stores UTF-8 only; another program writing our
                // attributes might not. Never hand out an altered value.
                guard let text = String(validating: value, as: UTF8.self) else {
                    return .error(
                        .secretsUnavailable,
                        "the stored value of '\(secretName)' is not UTF-8 text; set it again with"
                            + " `extension-bridge secret set \(secretName) --shared`")
                }
                context.logger.debug("getSecret \(secretName): \(value.count) bytes")
                return .success(["name": .string(secretName), "value": .string(text)])
            }
            if try context.secrets.list().contains(where: { $0.name == secretName }) {
                context.logger.info("getSecret \(secretName): not shared")
                return .error(
                    .secretNotShared,
                    "the secret '\(secretName)' is not shared with the extension; the app shares it with"
                        + " `extension-bridge secret set \(secretName) --shared`")
            }
            return .error(.secretNotFound, "no secret named '\(secretName)' in group \(context.groupID)")
        } catch {
            switch error {
            case .invalidName: return .error(.invalidRequest, error.description)
            case .notFound: return .error(.secretNotFound, error.description)
            case .unavailable, .invalidValue:
                context.logger.warn("getSecret: \(error)")
                return .error(.secretsUnavailable, error.description)
            }
        }
    }
}

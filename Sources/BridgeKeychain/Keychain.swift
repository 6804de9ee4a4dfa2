#if canImport(Security)
    internal import Foundation
    internal import Security
#endif

/// Generic-password items in the macOS Keychain, through Security.framework
/// (and so Foundation): in its own module, `BridgeKeychain`, which only the
/// CLI links; the host never does. Compiled and run on macOS only; **untested
/// here** (the test machines run Linux). Elsewhere every call throws
/// `Keychain.Failure.unsupported` and the module imports no Foundation.
///
/// An item is found by its service and account; `comment` carries a short
/// mark of the caller's (SharedSuite's `KeychainSecretStore` keeps `shared` in it).
public enum Keychain {
    public enum Failure: Error, Equatable, Sendable {
        /// No Keychain on this platform.
        case unsupported
        /// Security.framework's `OSStatus` and its message.
        case status(Int32, String)
    }

    /// One item's account and comment.
    public struct Item: Equatable, Sendable {
        public var account: String
        public var comment: String
    }

    /// Adds or replaces the item `service`/`account`.
    public static func set(service: String, account: String, comment: String, value: [UInt8]) throws(Failure) {
        #if canImport(Security)
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
                kSecAttrAccount as String: account,
            ]
            let attributes: [String: Any] = [
                kSecValueData as String: Data(value), kSecAttrComment as String: comment,
            ]
            var status = SecItemUpdate(query as CFDictionary, attributes as CFDictionary)
            if status == errSecItemNotFound {
                status = SecItemAdd(query.merging(attributes) { $1 } as CFDictionary, nil)
            }
            try check(status)
        #else
            throw .unsupported
        #endif
    }

    /// The value and comment of `service`/`account`; nil when there is none.
    public static func get(service: String, account: String) throws(Failure) -> (value: [UInt8], comment: String)? {
        #if canImport(Security)
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
                kSecAttrAccount as String: account, kSecReturnData as String: true,
                kSecReturnAttributes as String: true, kSecMatchLimit as String: kSecMatchLimitOne,
            ]
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            if status == errSecItemNotFound { return nil }
            try check(status)
            guard let item = result as? [String: Any], let data = item[kSecValueData as String] as? Data else {
                return nil
            }
            return ([UInt8](data), item[kSecAttrComment as String] as? String ?? "")
        #else
            throw .unsupported
        #endif
    }

    /// Removes `service`/`account`; false when there was none.
    public static func delete(service: String, account: String) throws(Failure) -> Bool {
        #if canImport(Security)
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
                kSecAttrAccount as String: account,
            ]
            let status = SecItemDelete(query as CFDictionary)
            if status == errSecItemNotFound { return false }
            try check(status)
            return true
        #else
            throw .unsupported
        #endif
    }

    /// Every item of `service`, without values.
    public static func list(service: String) throws(Failure) -> [Item] {
        #if canImport(Security)
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
                kSecReturnAttributes as String: true, kSecMatchLimit as String: kSecMatchLimitAll,
            ]
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            if status == errSecItemNotFound { return [] }
            try check(status)
            let items = result as? [[String: Any]] ?? []
            return items.compactMap { item in
                guard let account = item[kSecAttrAccount as String] as? String else { return nil }
                return Item(account: account, comment: item[kSecAttrComment as String] as? String ?? "")
            }
        #else
            throw .unsupported
        #endif
    }

    #if canImport(Security)
        private static func check(_ status: OSStatus) throws(Failure) {
            guard status != errSecSuccess else { return }
            let message = SecCopyErrorMessageString(status, nil) as String? ?? "OSStatus \(status)"
            throw .status(status, message)
        }
    #endif
}

/// Names that `install`, `doctor` and the host must spell the same way.
public enum HostIdentity {
    /// The built-in bridge's native-messaging host name.
    public static let defaultHostName = "org.extensionbridge.host"
    /// The built-in host executable's file name.
    public static let defaultHostProduct = "extension-bridge-host"
    /// True for a group id the suite, the host's configuration and
    /// `secret-tool` can all take as it is: 1–200 ASCII letters, digits, `.`,
    /// `-` and `_`, not starting with `.` (a hidden folder) or `-` (an option
    /// to the tools it is passed to).
    public static func isGroupID(_ groupID: String) -> Bool {
        guard let first = groupID.utf8.first, first != UInt8(ascii: "."), first != UInt8(ascii: "-"),
            groupID.utf8.count <= 200
        else { return false }
        return groupID.utf8.allSatisfy { b in
            (b >= 48 && b <= 57) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b == 46 || b == 45 || b == 95
        }
    }

    /// Exit status of a host that refused its caller.
    public static let callerRefusedStatus: Int32 = 3

    /// The member of a host manifest that lists who may start the host:
    /// `allowed_origins` for Chromium-family browsers, `allowed_extensions`
    /// for Firefox.
    public static func allowedCallersKey(chromium: Bool) -> String {
        chromium ? "allowed_origins" : "allowed_extensions"
    }
}

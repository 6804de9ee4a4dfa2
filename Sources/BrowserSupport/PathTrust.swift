import BridgeSystem

/// Whether a file may be trusted to be what its owner put there: nobody
/// else can have written it, or swapped it (or a folder on its way) for
/// theirs. `doctor` runs no program, and `new` takes no ExtensionBridge
/// source it found itself, that fails this rule: a project folder another
/// user can write is one where they can replace `.build/debug/<host>`, which
/// `doctor` would then run with the user's rights.
///
/// The rule, for the file and every folder from `/` down to it, both as
/// written and with its links resolved: it belongs to the user or to root,
/// and only its owner may write it. Write access for its group is harmless
/// when the group is the owner's private group (the owner its only member,
/// in `/etc/passwd` and `/etc/group`: what a umask of 002 gives on systems
/// with a group per user). A folder others may write is accepted only with
/// the sticky bit (`/tmp`): there nobody may rename or remove what is not
/// theirs, and what comes next on the path must itself pass.
public enum PathTrust {
    /// Why a path is not to be trusted: the path that fails, why, and the command that fixes it
    /// when there is one.
    public struct Refusal: Equatable, Sendable, CustomStringConvertible {
        /// The file or folder that fails the rule.
        public var path: String
        public var reason: String
        /// A command that exists on the user's machine (`chmod go-w '…'`); nil when only moving the
        /// file into a folder of one's own would do (another user's file).
        public var fix: String?

        public var description: String { "\(path) \(reason)" }
    }

    /// Why `path` is not to be trusted, or nil when it is (see `PathTrust`).
    /// - Parameters:
    ///   - path: an absolute path (anything else is refused).
    ///   - userID: the user the file must belong to (or root).
    ///   - accounts: where the private groups are read (tests give their own files).
    ///   - onTheWay: `path` is a folder something of the user's own is about to be made in, so it
    ///     is held to the rule of a folder on the way (a sticky one passes), not of the end.
    public static func refusal(
        _ path: String, userID: UInt32 = Platform.effectiveUserID, accounts: Accounts = Accounts(),
        onTheWay: Bool = false
    ) -> Refusal? {
        guard path.hasPrefix("/") else { return Refusal(path: path, reason: "is not an absolute path", fix: nil) }
        if let refusal = walk(path, userID: userID, accounts: accounts, onTheWay: onTheWay) { return refusal }
        guard let resolved = FileSystem.resolvedPath(path) else {
            return Refusal(path: path, reason: "cannot be examined (it or a link on its way is missing)", fix: nil)
        }
        return resolved == path ? nil : walk(resolved, userID: userID, accounts: accounts, onTheWay: onTheWay)
    }

    /// Why `path`, which is about to be made (or written), fails the rule, or nil: the nearest
    /// folder of it that exists is judged, as a folder on the way when `path` itself is not there
    /// yet (a sticky folder such as /tmp passes: what is made inside it is the user's own).
    public static func refusal(toCreate path: String, userID: UInt32 = Platform.effectiveUserID) -> Refusal? {
        var existing = path
        while existing != "/", (try? FileSystem.status(existing)) == nil { existing = FileSystem.parentPath(existing) }
        return refusal(existing, userID: userID, onTheWay: existing != path)
    }

    /// The account files private groups are read from.
    public struct Accounts: Sendable {
        public var passwd: String
        public var group: String

        public init(passwd: String = "/etc/passwd", group: String = "/etc/group") {
            self.passwd = passwd
            self.group = group
        }

        /// True when `gid` is the primary group of `uid` in `passwd`, no other user there has it,
        /// and `group` lists it with no member but them: the owner's private group. A group or user
        /// these files do not name (a directory service's) is not known to be private.
        public func isPrivateGroup(_ gid: UInt32, of uid: UInt32) -> Bool {
            func lines(_ path: String) -> [[Substring]] {
                guard let bytes = try? FileSystem.readFile(path, limit: 16 << 20) else { return [] }
                return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map {
                    $0.split(separator: ":", omittingEmptySubsequences: false)
                }
            }
            let users = lines(passwd).filter { $0.count >= 4 }
            guard let owner = users.first(where: { UInt32($0[2]) == uid }), UInt32(owner[3]) == gid else {
                return false
            }
            let name = owner[0]
            guard users.allSatisfy({ UInt32($0[3]) != gid || UInt32($0[2]) == uid }) else { return false }
            guard let entry = lines(group).first(where: { $0.count >= 4 && UInt32($0[2]) == gid }) else {
                return false
            }
            return entry[3].split(separator: ",").allSatisfy { $0 == name }
        }
    }

    /// Why one entry (a file, folder or link as `status` describes it) fails the rule, or nil.
    /// - Parameter last: the entry is the path's end (a folder before it may be sticky).
    public static func refusal(
        of status: FileStatus, at path: String, userID: UInt32, last: Bool = true, accounts: Accounts = Accounts()
    ) -> Refusal? {
        if status.owner != userID && status.owner != 0 {
            return Refusal(
                path: path, reason: "belongs to another user (uid \(status.owner))",
                fix: nil)
        }
        if status.isSymbolicLink || status.permissions & 0o022 == 0 { return nil }
        let sticky = status.permissions & 0o1000 != 0
        if status.isDirectory && sticky && !last { return nil }
        if status.permissions & 0o002 == 0, accounts.isPrivateGroup(status.group, of: status.owner) { return nil }
        // A sticky folder for everyone (/tmp) is meant to be shared: taking others' write away is no fix.
        return Refusal(
            path: path,
            reason: "is writable by " + (status.permissions & 0o002 != 0 ? "every user" : "its group")
                + " (mode \(String(status.permissions, radix: 8)))"
                + (status.isDirectory && sticky ? ", a folder shared by all; use a folder of your own inside it" : ""),
            fix: status.isDirectory && sticky ? nil : "chmod go-w " + path.shellQuoted)
    }

    /// Every component of `path` as written (`lstat`, links not followed).
    private static func walk(_ path: String, userID: UInt32, accounts: Accounts, onTheWay: Bool) -> Refusal? {
        let parts = path.split(separator: "/").map(String.init)
        var current = ""
        for index in -1..<parts.count {
            current = index < 0 ? "/" : (current == "/" ? "" : current) + "/" + parts[index]
            guard let status = try? FileSystem.status(current) else {
                return Refusal(path: current, reason: "cannot be examined", fix: nil)
            }
            if let refusal = refusal(
                of: status, at: current, userID: userID, last: !onTheWay && index == parts.count - 1,
                accounts: accounts)
            {
                return refusal
            }
        }
        return nil
    }
}

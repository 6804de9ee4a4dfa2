/// What `stat` says of a file, without the C type.
public struct FileStatus: Equatable, Sendable {
    /// What kind of file it is.
    public enum Kind: Equatable, Sendable {
        case regular, directory, symbolicLink, fifo, socket, characterDevice, blockDevice, other
    }

    public var kind: Kind
    /// Size in bytes.
    public var size: Int64
    /// Permission bits (`0o600`).
    public var permissions: Int
    /// How many names the file has; 0 once it was renamed over or unlinked.
    public var linkCount: Int
    /// What changes when the file changes.
    public var identity: FileIdentity
    /// The owner's user id.
    public var owner: UInt32
    /// The owning group's id.
    public var group: UInt32

    init(_ info: _stat) {
        switch info.st_mode & _S_IFMT {
        case _S_IFREG: kind = .regular
        case _S_IFDIR: kind = .directory
        case _S_IFLNK: kind = .symbolicLink
        case _S_IFIFO: kind = .fifo
        case _S_IFSOCK: kind = .socket
        case _S_IFCHR: kind = .characterDevice
        case _S_IFBLK: kind = .blockDevice
        default: kind = .other
        }
        size = Int64(info.st_size)
        permissions = Int(info.st_mode & 0o7777)
        linkCount = Int(info.st_nlink)
        identity = FileIdentity(info)
        owner = UInt32(info.st_uid)
        group = UInt32(info.st_gid)
    }

    public var isRegular: Bool { kind == .regular }
    public var isDirectory: Bool { kind == .directory }
    public var isSymbolicLink: Bool { kind == .symbolicLink }
    /// True for a pipe or socket (where a reader may stop reading).
    public var isPipeOrSocket: Bool { kind == .fifo || kind == .socket }
}

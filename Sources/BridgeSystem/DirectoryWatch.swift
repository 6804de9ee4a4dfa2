/// Notifications of changes to folders' entries: inotify on Linux. Where the
/// kernel offers no such thing (or refuses more watches), `init` throws and
/// the caller falls back to looking with `stat` on a timer.
///
/// A watch reports entries created, deleted, renamed in or out, and files
/// closed after writing, by name; and the folder itself deleted or moved.
/// Wait for `descriptor` to be readable, then call `readEvents()`.
public final class DirectoryWatch {
    /// One change.
    public struct Event: Equatable, Sendable {
        /// The watch it came from (`add`'s result); -1 for an overflow.
        public var watch: Int32
        /// The entry's name; empty for an event about the folder itself.
        public var name: String
        /// The folder itself was deleted, moved, or unmounted: its watch is gone.
        public var folderGone: Bool
        /// Events were lost: look at everything again.
        public var overflow: Bool
    }

    /// Readable when events wait. Owned by the watch.
    public let descriptor: FileDescriptor

    /// - Throws: `SystemError` where the platform has no folder notifications
    ///   or the process may not have more.
    public init() throws(SystemError) {
        #if os(Linux)
            let fd = system_inotify_init1(Int32(_IN_NONBLOCK | _IN_CLOEXEC))
            if fd < 0 { throw SystemError("inotify_init1") }
            descriptor = FileDescriptor(rawValue: fd)
        #else
            throw SystemError("watch folders", code: _ENOSYS)
        #endif
    }

    deinit { descriptor.close() }

    /// Watches the folder `path` (following a link to it).
    /// - Returns: the watch's number, as events carry it.
    public func add(_ path: String) throws(SystemError) -> Int32 {
        #if os(Linux)
            let mask =
                UInt32(_IN_CREATE) | UInt32(_IN_DELETE) | UInt32(_IN_MOVED_FROM) | UInt32(_IN_MOVED_TO)
                | UInt32(_IN_CLOSE_WRITE) | UInt32(_IN_ATTRIB) | UInt32(_IN_DELETE_SELF) | UInt32(_IN_MOVE_SELF)
                | UInt32(_IN_ONLYDIR)
            let watch = system_inotify_add_watch(descriptor.rawValue, path, mask)
            if watch < 0 { throw SystemError("watch", path) }
            return watch
        #else
            throw SystemError("watch", path, code: _ENOSYS)
        #endif
    }

    /// Stops watch `watch`; an unknown or finished watch is ignored.
    public func remove(_ watch: Int32) {
        #if os(Linux)
            _ = system_inotify_rm_watch(descriptor.rawValue, watch)
        #endif
    }

    /// Every event waiting now; empty when none (never blocks).
    public func readEvents() -> [Event] {
        var events: [Event] = []
        #if os(Linux)
            var buffer = [UInt8](repeating: 0, count: 16_384)
            while true {
                let n = buffer.withUnsafeMutableBytes { raw in
                    try? descriptor.readOnce(into: raw)
                }
                guard case .bytes(let count)? = n, count > 0 else { break }
                var offset = 0
                // struct inotify_event { int wd; uint32_t mask, cookie, len; char name[len]; }
                while offset + 16 <= count {
                    func word(_ at: Int) -> UInt32 {  // native byte order, as the kernel writes it
                        buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: UInt32.self) }
                    }
                    let watch = Int32(bitPattern: word(offset))
                    let mask = word(offset + 4)
                    let length = Int(word(offset + 12))
                    let nameBytes = buffer[(offset + 16)..<min(count, offset + 16 + length)]
                    let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                    offset += 16 + length
                    let gone =
                        mask
                        & (UInt32(_IN_DELETE_SELF) | UInt32(_IN_MOVE_SELF) | UInt32(_IN_IGNORED) | UInt32(_IN_UNMOUNT))
                        != 0
                    let overflow = mask & UInt32(_IN_Q_OVERFLOW) != 0
                    events.append(Event(watch: watch, name: name, folderGone: gone, overflow: overflow))
                }
            }
        #endif
        return events
    }
}

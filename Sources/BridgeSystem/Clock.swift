/// A point in time as seconds and nanoseconds since 1970 (UTC).
public struct WallTime: Equatable, Comparable, Sendable {
    public var seconds: Int64
    public var nanoseconds: Int32

    public init(seconds: Int64, nanoseconds: Int32 = 0) {
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    /// Milliseconds since 1970.
    public var milliseconds: Int64 { seconds * 1000 + Int64(nanoseconds / 1_000_000) }

    /// The current time from `CLOCK_REALTIME`.
    public static func now() -> WallTime {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return WallTime(seconds: Int64(ts.tv_sec), nanoseconds: Int32(ts.tv_nsec))
    }

    public static func < (a: WallTime, b: WallTime) -> Bool {
        (a.seconds, a.nanoseconds) < (b.seconds, b.nanoseconds)
    }

    /// ISO 8601 in UTC with milliseconds: `2026-11-29T18:57:02.123Z`.
    public var iso8601: String {
        var t = time_t(seconds)
        var parts = tm()
        gmtime_r(&t, &parts)
        func pad(_ v: Int32, _ width: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))"
            + "T\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2))"
            + ".\(pad(nanoseconds / 1_000_000, 3))Z"
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fff…](Z|±HH:MM)` or a bare `YYYY-MM-DD`.
    public init?(iso8601 text: String) {
        let b = Array(text.utf8)
        func num(_ from: Int, _ count: Int) -> Int32? {
            guard from + count <= b.count else { return nil }
            var v: Int32 = 0
            for i in from..<(from + count) {
                guard b[i] >= 48 && b[i] <= 57 else { return nil }
                v = v * 10 + Int32(b[i] - 48)
            }
            return v
        }
        guard b.count >= 10, let year = num(0, 4), b[4] == 45, let month = num(5, 2), b[7] == 45,
            let day = num(8, 2), (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var parts = tm()
        parts.tm_year = year - 1900
        parts.tm_mon = month - 1
        parts.tm_mday = day
        var nanos: Int32 = 0
        var offset: Int64 = 0
        if b.count > 10 {
            guard b.count >= 19, b[10] == 84 || b[10] == 32, let hh = num(11, 2), b[13] == 58,
                let mm = num(14, 2), b[16] == 58, let ss = num(17, 2), hh < 24, mm < 60, ss < 61
            else { return nil }
            parts.tm_hour = hh
            parts.tm_min = mm
            parts.tm_sec = ss
            var i = 19
            if i < b.count && b[i] == 46 {
                i += 1
                var scale: Int32 = 100_000_000
                let start = i
                while i < b.count, b[i] >= 48, b[i] <= 57 {
                    nanos += Int32(b[i] - 48) * scale
                    scale /= 10
                    i += 1
                }
                if i == start { return nil }
                // Milliseconds, as `iso8601` writes them: a finer fraction would not read back the same.
                nanos -= nanos % 1_000_000
            }
            guard i < b.count else { return nil }
            if b[i] == 90 {
                i += 1
            } else if b[i] == 43 || b[i] == 45, let oh = num(i + 1, 2), b.count > i + 3, b[i + 3] == 58,
                let om = num(i + 4, 2)
            {
                offset = Int64(oh) * 3600 + Int64(om) * 60
                if b[i] == 45 { offset = -offset }
                i += 6
            } else {
                return nil
            }
            guard i == b.count else { return nil }
        }
        let seconds = Int64(timegm(&parts)) - offset
        self.init(seconds: seconds, nanoseconds: nanos)
    }
}

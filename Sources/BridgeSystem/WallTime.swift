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
        var ts = _timespec()
        system_clock_gettime(_CLOCK_REALTIME, &ts)
        return WallTime(seconds: Int64(ts.tv_sec), nanoseconds: Int32(ts.tv_nsec))
    }

    public static func < (a: WallTime, b: WallTime) -> Bool {
        (a.seconds, a.nanoseconds) < (b.seconds, b.nanoseconds)
    }

    /// RFC 2822 in UTC, as Debian changelogs and mail write dates: `Tue, 01 Dec 2026 07:38:00 +0000`.
    public var rfc2822: String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = WallTime.civil(fromDays: days)
        let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]  // 1970-01-01 was a Thursday
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(weekdays[Int(((days % 7) + 7) % 7)]), \(two(day)) \(months[Int(month - 1)]) \(year) "
            + "\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60)) +0000"
    }

    /// ISO 8601 in UTC with milliseconds: `2026-11-29T18:57:02.123Z`.
    public var iso8601: String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = WallTime.civil(fromDays: days)
        var out: [UInt8] = []
        out.reserveCapacity(24)
        func put(_ value: Int64, _ width: Int) {
            if value < 0 {  // years before 0000: as `String` writes them, zero-padded to the width
                let text = Array(String(value).utf8)
                for _ in 0..<max(0, width - text.count) { out.append(0x30) }
                out.append(contentsOf: text)
                return
            }
            var digits: [UInt8] = []
            var v = value
            repeat {
                digits.append(UInt8(0x30 + v % 10))
                v /= 10
            } while v > 0
            for _ in 0..<max(0, width - digits.count) { out.append(0x30) }
            out.append(contentsOf: digits.reversed())
        }
        put(year, 4)
        out.append(UInt8(ascii: "-"))
        put(month, 2)
        out.append(UInt8(ascii: "-"))
        put(day, 2)
        out.append(UInt8(ascii: "T"))
        put(secondOfDay / 3600, 2)
        out.append(UInt8(ascii: ":"))
        put(secondOfDay / 60 % 60, 2)
        out.append(UInt8(ascii: ":"))
        put(secondOfDay % 60, 2)
        out.append(UInt8(ascii: "."))
        put(Int64(nanoseconds / 1_000_000), 3)
        out.append(UInt8(ascii: "Z"))
        return String(decoding: out, as: UTF8.self)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date; `day` may run past
    /// the month's end (it counts on, as `timegm` does). H. Hinnant's algorithm:
    /// arithmetic only, so no time-zone files are read.
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// How many days `month` (1–12) of `year` has, leap years as the proleptic Gregorian calendar has them.
    static func daysInMonth(year: Int64, month: Int64) -> Int32 {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// The date of a day count since 1970-01-01 (the inverse of `days`).
    static func civil(fromDays count: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = count + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The first and last instants `iso8601` can write so that this parser
    /// reads them back: 0001-01-01T00:00:00.000Z through 9999-12-31T23:59:59.999Z.
    public static let iso8601Range: ClosedRange<WallTime> =
        WallTime(seconds: -62_135_596_800)...WallTime(seconds: 253_402_300_799, nanoseconds: 999_000_000)

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fff…](Z|±HH:MM)` or a bare `YYYY-MM-DD`.
    /// Returns nil for text of another shape, for a day the month does not have (February 30
    /// is not March 2), and for an instant outside
    /// `iso8601Range` (a leap second or an offset can roll 9999-12-31 into
    /// year 10000, which four digits cannot hold).
    public init?(iso8601 text: String) {
        var text = text
        guard let time = text.withUTF8({ WallTime(iso8601UTF8: $0) }) else { return nil }
        self = time
    }

    /// Parses the UTF-8 bytes of an ISO 8601 text (see `init?(iso8601:)`).
    public init?(iso8601UTF8 b: UnsafeBufferPointer<UInt8>) {
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
            let day = num(8, 2), (1...12).contains(month), day >= 1,
            day <= WallTime.daysInMonth(year: Int64(year), month: Int64(month))
        else { return nil }
        var secondOfDay: Int64 = 0
        var nanos: Int32 = 0
        var offset: Int64 = 0
        if b.count > 10 {
            guard b.count >= 19, b[10] == 84 || b[10] == 32, let hh = num(11, 2), b[13] == 58,
                let mm = num(14, 2), b[16] == 58, let ss = num(17, 2), hh < 24, mm < 60,
                ss < 60 || (ss == 60 && hh == 23 && mm == 59)  // a leap second ends a UTC day, nothing else
            else { return nil }
            secondOfDay = Int64(hh) * 3600 + Int64(mm) * 60 + Int64(ss)
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
                let om = num(i + 4, 2), oh < 24, om < 60
            {
                offset = Int64(oh) * 3600 + Int64(om) * 60
                if b[i] == 45 { offset = -offset }
                i += 6
            } else {
                return nil
            }
            guard i == b.count else { return nil }
        }
        let days = WallTime.days(year: Int64(year), month: Int64(month), day: Int64(day))
        let seconds = days * 86_400 + secondOfDay - offset
        let time = WallTime(seconds: seconds, nanoseconds: nanos)
        guard WallTime.iso8601Range.contains(time) else { return nil }
        self = time
    }
}

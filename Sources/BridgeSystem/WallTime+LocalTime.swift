extension WallTime {
    /// The time of day in the local time zone (`TZ`, else `/etc/localtime`), to the
    /// millisecond: `14:03:07.512`. UTC when the zone cannot be had.
    public var localTimeOfDay: String {
        var seconds = _time_t(self.seconds)
        var parts = _tm()
        var hour = Int((self.seconds / 3600) % 24)
        var minute = Int((self.seconds / 60) % 60)
        var second = Int(self.seconds % 60)
        if system_localtime_r(&seconds, &parts) != nil {
            hour = Int(parts.tm_hour)
            minute = Int(parts.tm_min)
            second = Int(parts.tm_sec)
        }
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let milliseconds = Int(nanoseconds / 1_000_000)
        let millis =
            milliseconds < 10 ? "00\(milliseconds)" : milliseconds < 100 ? "0\(milliseconds)" : "\(milliseconds)"
        return "\(two(hour)):\(two(minute)):\(two(second)).\(millis)"
    }
}

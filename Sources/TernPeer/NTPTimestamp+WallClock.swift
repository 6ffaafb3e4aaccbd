import Foundation
import TernRTP

extension NTPTimestamp {
    /// The NTP timestamp (RFC 5905 §6: seconds since 1900) of a wall-clock date, for the RTCP
    /// sender report's NTP field (RFC 3550 §6.4.1).
    init(wallClock date: Date) {
        let seconds = date.timeIntervalSince1970 + 2_208_988_800
        let whole = seconds.rounded(.down)
        self.init(seconds: UInt32(truncatingIfNeeded: Int64(whole)),
                  fraction: UInt32(truncatingIfNeeded: Int64((seconds - whole) * 4_294_967_296)))
    }
}

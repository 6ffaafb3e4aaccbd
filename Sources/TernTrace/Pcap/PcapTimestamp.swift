public import Foundation
public import TernCore

/// A record timestamp: whole seconds since the Unix epoch plus microseconds.
public struct PcapTimestamp: Hashable, Sendable {
    /// Seconds since 1970-01-01T00:00:00Z (32-bit, as the classic format stores it).
    public var seconds: UInt32
    /// Microseconds within the second, 0..<1_000_000.
    public var microseconds: UInt32

    /// A timestamp from its parts; `microseconds` is reduced modulo one second.
    public init(seconds: UInt32, microseconds: UInt32) {
        self.seconds = seconds &+ microseconds / 1_000_000
        self.microseconds = microseconds % 1_000_000
    }

    /// The timestamp of `date`, rounded down to the microsecond; dates before
    /// 1970 or after 2106 are clamped to the representable range.
    public init(_ date: Date) {
        let micros = (date.timeIntervalSince1970 * 1_000_000).rounded(.down)
        let clamped = min(max(micros, 0), Double(UInt32.max) * 1_000_000 + 999_999)
        let total = UInt64(clamped)
        self.init(seconds: UInt32(total / 1_000_000), microseconds: UInt32(total % 1_000_000))
    }

    /// The wall-clock date for a monotonic `instant`, given one known pairing
    /// (`anchor`) of the two clocks.
    public init(_ instant: Instant, anchor: WallClockAnchor) {
        self.init(anchor.date(for: instant))
    }

    /// The timestamp as a `Date`.
    public var date: Date {
        Date(timeIntervalSince1970: Double(seconds) + Double(microseconds) / 1_000_000)
    }
}

public import TernCore

/// A 64-bit NTP timestamp (RFC 3550 §4): seconds since 1900 in the high 32 bits,
/// the fraction in the low 32 bits.
public struct NTPTimestamp: RawRepresentable, Hashable, Comparable, Sendable {
    /// The 64-bit wire value.
    public var rawValue: UInt64
    /// From the 64-bit wire value.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// From whole seconds and a 32-bit fraction.
    public init(seconds: UInt32, fraction: UInt32) {
        rawValue = UInt64(seconds) << 32 | UInt64(fraction)
    }

    /// The middle 32 bits, as carried in LSR (RFC 3550 §6.4.1): 16.16 fixed-point seconds.
    public var middle32: UInt32 { UInt32(truncatingIfNeeded: rawValue >> 16) }

    /// Orders timestamps by their raw value.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// This timestamp moved by `duration` (wrapping as NTP does).
    public static func + (lhs: Self, rhs: Duration) -> Self {
        // 2^32 fraction units per second.
        let ns = rhs.nanoseconds
        let units = (Int128(ns) << 32) / 1_000_000_000
        return Self(rawValue: UInt64(truncatingIfNeeded: Int128(lhs.rawValue) + units))
    }
}

/// Maps the monotonic `Instant`s that protocol cores receive onto NTP wallclock
/// time, from one reading of both clocks taken by the caller (sans-I/O).
public struct NTPClockMapping: Sendable, Equatable {
    /// The instant of the reading.
    public var instant: Instant
    /// The wallclock time at `instant`.
    public var ntp: NTPTimestamp

    /// A mapping from one simultaneous reading of the monotonic clock and the wallclock.
    public init(instant: Instant, ntp: NTPTimestamp) {
        self.instant = instant
        self.ntp = ntp
    }

    /// The NTP time at `now`.
    public func ntp(at now: Instant) -> NTPTimestamp { ntp + (now - instant) }
}

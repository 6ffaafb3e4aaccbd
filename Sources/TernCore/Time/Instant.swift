/// A point on a monotonic timeline, in nanoseconds from an arbitrary origin.
///
/// Protocol cores never read a clock: the caller passes `now: Instant` in, so a
/// test can drive them with a `ManualClock` and get the same result every run.
public struct Instant: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Nanoseconds since the clock's origin.
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// The origin of every clock (tests usually start here).
    public static let zero = Instant(nanoseconds: 0)

    /// Later than any real instant: "no deadline".
    public static let distantFuture = Instant(nanoseconds: .max)

    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    public static func + (lhs: Instant, rhs: Duration) -> Instant {
        let (sum, overflow) = lhs.nanoseconds.addingReportingOverflow(rhs.nanoseconds)
        return Instant(nanoseconds: overflow ? (rhs > .zero ? .max : .min) : sum)
    }

    public static func - (lhs: Instant, rhs: Duration) -> Instant { lhs + (.zero - rhs) }

    public static func += (lhs: inout Instant, rhs: Duration) { lhs = lhs + rhs }

    /// The time from `rhs` to `lhs`.
    public static func - (lhs: Instant, rhs: Instant) -> Duration {
        .nanoseconds(lhs.nanoseconds &- rhs.nanoseconds)
    }

    /// The earlier of two optional deadlines, nil meaning "none". Timers are re-armed after
    /// every datagram, so their deadlines are folded with this rather than through an array.
    @inlinable
    public static func earliest(_ a: Instant?, _ b: Instant?) -> Instant? {
        guard let a else { return b }
        guard let b else { return a }
        return Swift.min(a, b)
    }

    /// Milliseconds since the origin, for traces.
    public var milliseconds: Double { Double(nanoseconds) / 1_000_000 }

    public var description: String {
        let ms = Double(nanoseconds) / 1_000_000
        return "\((ms * 1000).rounded() / 1000)ms"
    }
}

extension Duration {
    /// The duration in whole nanoseconds (saturating).
    public var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds > 0 ? .max : .min }
        return scaled &+ attoseconds / 1_000_000_000
    }

    /// The duration in milliseconds, as a floating-point number.
    public var milliseconds: Double { Double(nanoseconds) / 1_000_000 }

    /// The duration in seconds, as a floating-point number.
    public var seconds: Double { Double(nanoseconds) / 1_000_000_000 }
}

extension Instant: Codable {
    public init(from decoder: any Decoder) throws {
        nanoseconds = try decoder.singleValueContainer().decode(Int64.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(nanoseconds)
    }
}

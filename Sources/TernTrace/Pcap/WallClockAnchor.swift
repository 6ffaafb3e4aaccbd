public import Foundation
public import TernCore

/// One moment read from both clocks, to convert monotonic `Instant`s to wall-clock dates.
///
/// Take it once at the start of a call: `WallClockAnchor(date: Date(), instant: clock.now)`.
public struct WallClockAnchor: Hashable, Sendable {
    /// The wall-clock time at `instant`.
    public var date: Date
    /// The monotonic time at `date`.
    public var instant: Instant

    /// Pairs a wall-clock date with the monotonic instant read at the same moment.
    public init(date: Date, instant: Instant) {
        self.date = date
        self.instant = instant
    }

    /// The wall-clock date of `other`.
    public func date(for other: Instant) -> Date {
        date.addingTimeInterval((other - instant).seconds)
    }
}

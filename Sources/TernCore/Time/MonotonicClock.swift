import Synchronization

/// A source of `Instant`s. I/O drivers read it and pass the time into protocol cores.
public protocol MonotonicClock: Sendable {
    /// The current instant; never goes backwards.
    func now() -> Instant
}

/// The process's monotonic clock (CLOCK_MONOTONIC through `ContinuousClock`).
public struct SystemClock: MonotonicClock {
    private static let origin = ContinuousClock.now

    public init() {}

    public func now() -> Instant {
        Instant(nanoseconds: SystemClock.origin.duration(to: .now).nanoseconds)
    }
}

/// A clock that moves only when told to: deterministic tests of timers,
/// retransmissions and timeouts.
public final class ManualClock: MonotonicClock {
    private let current: Mutex<Instant>

    public init(start: Instant = .zero) { current = Mutex(start) }

    public func now() -> Instant { current.withLock { $0 } }

    /// Moves time forward by `duration` (ignored if negative).
    public func advance(by duration: Duration) {
        guard duration > .zero else { return }
        current.withLock { $0 = $0 + duration }
    }

    /// Moves time forward to `instant` (ignored if it is in the past).
    public func advance(to instant: Instant) {
        current.withLock { $0 = max($0, instant) }
    }
}

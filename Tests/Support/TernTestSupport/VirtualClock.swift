public import TernCore

/// Virtual time for tests of sans-I/O cores (str0m's `progress()`): time moves only when a
/// test says so, and then from one pending deadline to the next, firing what is due at its
/// own instant — never a timer late, never a clock read. `SansIOPair` runs on one; the call
/// relay, the router harness and others whose cores exchange messages instead of datagrams
/// use it directly. A class, so that what `fire` runs may read `now` while time moves.
public final class VirtualClock {
    /// The current virtual time.
    public private(set) var now: Instant

    public init(now: Instant = .zero) {
        self.now = now
    }

    /// Moves to `target`: while some deadline (`deadlines()`, read again after every firing)
    /// is due by then, moves to the earliest one and calls `fire` with it; then settles on
    /// `target`. `fire` must make progress (a core's `handleTimeout` clears or moves its
    /// deadline); a deadline that stays put is fired at most `limit` times, then time moves on.
    public func advance(to target: Instant, limit: Int = 100_000,
                                 deadlines: () -> [Instant], fire: (Instant) -> Void) {
        var firings = 0
        while firings < limit, let next = deadlines().min(), next <= target {
            now = max(now, next)
            fire(now)
            firings += 1
        }
        now = max(now, target)
    }

    /// `advance(to: now + duration, …)`.
    public func advance(by duration: Duration, deadlines: () -> [Instant], fire: (Instant) -> Void) {
        advance(to: now + duration, deadlines: deadlines, fire: fire)
    }

    /// Moves to the earliest deadline (not past `target`, if given) without firing anything;
    /// false when none is pending in time.
    public func moveToNext(of deadlines: [Instant], notAfter target: Instant? = nil) -> Bool {
        guard let next = deadlines.min(), next <= target ?? next else { return false }
        now = max(now, next)
        return true
    }
}

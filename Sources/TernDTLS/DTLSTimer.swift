import TernCore
internal import COpenSSL

/// The DTLS retransmission timer (RFC 6347 §4.2.4).
///
/// ## Two clocks
/// OpenSSL keeps its own handshake timer, read against the *system* clock: `DTLSv1_handle_timeout`
/// retransmits only if that wall-clock deadline has passed, and OpenSSL also retransmits by itself
/// whenever a read finds no data after it. Tern's endpoint is sans-I/O and is handed `now`.
///
/// - `DTLS_set_timer_cb` makes Tern choose every duration (the callback sees 0 when a flight
///   starts its timer and the previous value at each timeout): `current` starts at the initial
///   timeout and doubles to the maximum. OpenSSL counts the timeouts towards its limit of 12.
/// - **In production** OpenSSL's timer runs on the system clock with those durations, and
///   `deadline` (what `nextTimeout` reports) is `now` plus OpenSSL's remaining time: no write into
///   OpenSSL's structures, on any version.
/// - **Virtual-time tests** (`DTLSConfiguration.retransmitsOnCallerClockForTesting`, OpenSSL
///   3.0.x only) need retransmissions to follow a `now` that jumps seconds in microseconds. There
///   Tern parks OpenSSL's timer an hour ahead and, when `now` reaches `deadline`, writes an
///   expired time into OpenSSL 3.0's private `d1->next_timeout` (whose address 3.0 passes with
///   `BIO_CTRL_DGRAM_SET_NEXT_TIMEOUT`) just before `DTLSv1_handle_timeout`. Such tests prove
///   Tern's timer policy (durations, doubling, the give-up) against OpenSSL's retransmission
///   logic; they do not exercise OpenSSL's own wall-clock check, which production relies on.
final class DTLSTimer {
    /// Whether this OpenSSL lets virtual-time tests drive retransmissions (3.0.x, see above).
    static let callerClockAvailable: Bool = (0x3000_0000..<0x3010_0000).contains(openSSLVersionNumber)

    /// Whether retransmissions follow the caller's `now` (tests) rather than the system clock.
    let followsCallerClock: Bool

    /// `OpenSSL_version_num()` of the library loaded at run time (0xMNN00PP0L).
    static let openSSLVersionNumber: UInt = OpenSSL_version_num()

    /// What Tern tells OpenSSL in caller-clock mode: an hour, in microseconds.
    private static let parkedMicroseconds: UInt32 = 3_600_000_000

    let initial: Duration
    let maximum: Duration
    /// The retransmission timeout of the current flight.
    private(set) var current: Duration
    /// When the next retransmission is due, or nil when no flight awaits an answer.
    private(set) var deadline: Instant?
    /// Timeouts fired so far, over the association's life.
    private(set) var timeoutsFired = 0

    private var restarted = false
    private var openSSLNextTimeout: UnsafeMutablePointer<timeval>?

    init(initial: Duration, maximum: Duration, followsCallerClock: Bool) {
        self.followsCallerClock = followsCallerClock && Self.callerClockAvailable
        self.initial = initial
        self.maximum = max(initial, maximum)
        self.current = initial
    }

    /// `BIO_CTRL_DGRAM_SET_NEXT_TIMEOUT` from `dtls1_start_timer`/`dtls1_stop_timer`.
    func openSSLDeadlineChanged(_ pointer: UnsafeMutableRawPointer?) {
        openSSLNextTimeout = pointer?.assumingMemoryBound(to: timeval.self)
    }

    /// The `DTLS_set_timer_cb` callback: `previous` is 0 when a flight starts its timer.
    func openSSLDuration(previousMicroseconds previous: UInt32) -> UInt32 {
        if previous == 0 {
            current = initial
        } else {
            timeoutsFired += 1
            current = min(current * 2, maximum)
        }
        restarted = true
        if followsCallerClock { return Self.parkedMicroseconds }
        return UInt32(clamping: current.nanoseconds / 1_000)
    }

    /// Makes OpenSSL's own deadline already past, so the next `DTLSv1_handle_timeout` acts.
    /// Returns false (and writes nothing) outside caller-clock mode or when no timer runs.
    func expireOpenSSLTimer() -> Bool {
        guard followsCallerClock, let field = openSSLNextTimeout else { return false }
        guard field.pointee.tv_sec != 0 || field.pointee.tv_usec != 0 else { return false }
        field.pointee = timeval(tv_sec: 1, tv_usec: 0)  // non-zero (= running), long past
        return true
    }

    /// Recomputes `deadline` after an OpenSSL call. `remaining` is `DTLSv1_get_timeout`'s answer
    /// (nil when OpenSSL has no timer running).
    func update(now: Instant, remaining: Duration?) {
        defer { restarted = false }
        guard let remaining else {
            deadline = nil
            return
        }
        if followsCallerClock {
            if restarted || deadline == nil { deadline = now + current }
        } else {
            deadline = now + remaining
        }
    }
}

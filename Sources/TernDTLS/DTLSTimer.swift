import TernCore
internal import COpenSSL

/// The DTLS retransmission timer (RFC 6347 §4.2.4), driven by the caller's `now`.
///
/// ## Two clocks
/// OpenSSL 3.0 keeps its own handshake timer, `d1->next_timeout`, read against the *system*
/// clock (`gettimeofday`): `DTLSv1_handle_timeout` retransmits only if that wall-clock deadline
/// has passed, and OpenSSL also retransmits by itself whenever a read finds no data after it.
/// A sans-I/O endpoint must instead follow `now`, which in tests jumps seconds ahead in
/// microseconds. Tern reconciles them this way:
///
/// 1. `DTLS_set_timer_cb` makes Tern choose every duration. The callback sees 0 when a flight
///    starts its timer and the previous value at each timeout; Tern keeps its own
///    `current` timeout (initial, doubling to the maximum) and `deadline = now + current`,
///    which is what `nextTimeout` reports.
/// 2. On OpenSSL 3.0.x, `dtls1_start_timer`/`dtls1_stop_timer` hand the read BIO the address of
///    `d1->next_timeout` with `BIO_CTRL_DGRAM_SET_NEXT_TIMEOUT`. Tern tells OpenSSL a duration of
///    one hour (so its wall clock never fires on its own, and no retransmission happens behind
///    our back) and, when `now` reaches `deadline`, writes an expired time into that field just
///    before calling `DTLSv1_handle_timeout`. OpenSSL then retransmits, counts the timeout
///    towards its limit of 12, calls the callback (Tern doubles `current`) and restarts.
/// 3. On any other OpenSSL version (3.2 moved the field and passes a copy), Tern never writes
///    through the pointer: it hands OpenSSL the real duration and `deadline` follows OpenSSL's
///    remaining time, so retransmission works with a real clock but not with virtual time.
///    `followsCallerClock` says which mode is active.
final class DTLSTimer {
    /// Whether retransmissions follow the caller's `now` (OpenSSL 3.0.x) rather than the system clock.
    static let followsCallerClock: Bool = (0x3000_0000..<0x3010_0000).contains(openSSLVersionNumber)

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

    init(initial: Duration, maximum: Duration) {
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
        if Self.followsCallerClock { return Self.parkedMicroseconds }
        return UInt32(clamping: current.nanoseconds / 1_000)
    }

    /// Makes OpenSSL's own deadline already past, so the next `DTLSv1_handle_timeout` acts.
    /// Returns false (and writes nothing) outside caller-clock mode or when no timer runs.
    func expireOpenSSLTimer() -> Bool {
        guard Self.followsCallerClock, let field = openSSLNextTimeout else { return false }
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
        if Self.followsCallerClock {
            if restarted || deadline == nil { deadline = now + current }
        } else {
            deadline = now + remaining
        }
    }
}

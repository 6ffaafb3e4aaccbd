public import TernCore

/// When to send the next compound RTCP packet: RFC 3550 §6.2 and Appendix A.7
/// (`rtcp_interval` with randomisation, timer reconsideration on expiry),
/// including the reduced minimum interval of 360 s / (session bandwidth in kbit/s)
/// that RFC 3550 §6.2 permits and WebRTC endpoints may use (RFC 8834, Media Transport and Use of RTP in WebRTC).
///
/// Sans-I/O: the caller passes `now`, tells it about RTCP packets sent and
/// received and how many members and senders the session has, and sends when
/// `expire(now:)` returns true. Randomness comes from a seeded generator so
/// tests are deterministic.
public struct RTCPIntervalScheduler: Sendable {
    /// Fixed parameters of the session.
    public struct Configuration: Sendable, Equatable {
        /// Session bandwidth in bits per second (the `b=AS` value, or an estimate).
        public var sessionBandwidth: Double
        /// Fraction of the session bandwidth for RTCP (RFC 3550 §6.2: 5%).
        public var rtcpFraction: Double
        /// The minimum interval between reports.
        public var minimumInterval: Duration

        /// Creates a value from its fields.
        public init(sessionBandwidth: Double, rtcpFraction: Double = 0.05, minimumInterval: Duration = .seconds(5)) {
            self.sessionBandwidth = sessionBandwidth
            self.rtcpFraction = rtcpFraction
            self.minimumInterval = minimumInterval
        }

        /// RFC 3550 §6.2's reduced minimum: 360 / (session bandwidth in kbit/s) seconds.
        public static func reducedMinimum(sessionBandwidth: Double) -> Duration {
            guard sessionBandwidth > 0 else { return .seconds(5) }
            return .nanoseconds(Int64(360.0 / (sessionBandwidth / 1000) * 1_000_000_000))
        }

        /// The configuration WebRTC uses: the reduced minimum interval of RFC 3550 §6.2 (as RFC 8834 permits for WebRTC).
        public static func webRTC(sessionBandwidth: Double) -> Configuration {
            Configuration(sessionBandwidth: sessionBandwidth, minimumInterval: reducedMinimum(sessionBandwidth: sessionBandwidth))
        }
    }

    /// Tuning knobs; may be changed between calls.
    public var configuration: Configuration
    private var random: SeededRandom

    /// Session members (including us) and senders, kept up to date by the caller.
    public var members: Int = 1
    /// Number of senders in the session.
    public var senders: Int = 0
    /// Whether we sent RTP since the second-to-last report (A.7 `we_sent`).
    public var weSent = false

    /// Average compound RTCP size in octets, including UDP/IP headers (A.7 `avg_rtcp_size`).
    public private(set) var averageRTCPSize: Double
    private var previousMembers = 1
    private var initial = true
    /// The last transmission time (A.7 `tp`) and the next scheduled one (`tn`).
    public private(set) var lastTransmission: Instant
    /// When the next report is scheduled (A.7 `tn`).
    public private(set) var nextTransmission: Instant

    /// RFC 3550 A.7 `COMPENSATION`: e − 3/2, correcting the randomisation's bias.
    public static let compensation = 2.718_281_828_459_045 - 1.5

    /// Starts the schedule at `now` with an expected first packet size (octets, with UDP/IP overhead).
    public init(configuration: Configuration, now: Instant, initialPacketSize: Double = 100, seed: UInt64 = 1) {
        self.configuration = configuration
        self.random = SeededRandom(seed: seed)
        averageRTCPSize = initialPacketSize
        lastTransmission = now
        nextTransmission = now
        nextTransmission = now + computeInterval()
    }

    /// RFC 3550 A.7 `rtcp_interval`, deterministic part (before randomisation).
    public static func deterministicInterval(members: Int, senders: Int, rtcpBandwidth: Double, weSent: Bool,
                                             averageRTCPSize: Double, initial: Bool, minimum: Duration) -> Double {
        // The very first report may go out after half the minimum interval.
        let minTime = initial ? minimum.seconds / 2 : minimum.seconds
        var bandwidth = rtcpBandwidth
        var n = Double(members)
        // Senders get a quarter of the RTCP bandwidth if they are at most a quarter of the members.
        if Double(senders) <= Double(members) * 0.25 {
            if weSent {
                bandwidth *= 0.25
                n = Double(senders)
            } else {
                bandwidth *= 0.75
                n -= Double(senders)
            }
        }
        guard bandwidth > 0 else { return minTime }
        return max(averageRTCPSize * n / bandwidth, minTime)
    }

    /// A fresh randomised interval: deterministic × U[0.5, 1.5] / (e − 3/2).
    public mutating func computeInterval() -> Duration {
        let rtcpBandwidth = configuration.sessionBandwidth * configuration.rtcpFraction / 8  // octets/s
        let t = Self.deterministicInterval(members: members, senders: senders, rtcpBandwidth: rtcpBandwidth, weSent: weSent,
                                           averageRTCPSize: averageRTCPSize, initial: initial, minimum: configuration.minimumInterval)
        let randomized = t * Double.random(in: 0.5...1.5, using: &random) / Self.compensation
        return .nanoseconds(Int64(randomized * 1_000_000_000))
    }

    /// A.7 `OnExpire` with timer reconsideration: call at `nextTransmission`.
    /// Returns true when a report should be sent now; otherwise the timer moved.
    public mutating func expire(now: Instant) -> Bool {
        guard now >= nextTransmission else { return false }
        let t = computeInterval()
        if lastTransmission + t <= now {
            return true
        }
        nextTransmission = lastTransmission + t
        return false
    }

    /// Records that we sent a compound RTCP packet of `size` octets (with UDP/IP overhead) at `now`, and schedules the next.
    public mutating func didSend(size: Int, now: Instant) {
        averageRTCPSize = Double(size) / 16 + averageRTCPSize * 15 / 16
        lastTransmission = now
        initial = false
        previousMembers = members
        nextTransmission = now + computeInterval()
    }

    /// Records a received compound RTCP packet of `size` octets (A.7 `OnReceive`).
    public mutating func didReceive(size: Int) {
        averageRTCPSize = Double(size) / 16 + averageRTCPSize * 15 / 16
    }

    /// A.7 reverse reconsideration after members left (a BYE): pulls the next
    /// transmission earlier in proportion to the membership drop.
    public mutating func membersDecreased(to newMembers: Int, now: Instant) {
        members = max(1, newMembers)
        guard members < previousMembers, previousMembers > 0 else { return }
        let ratio = Double(members) / Double(previousMembers)
        let remaining = nextTransmission - now
        let back = lastTransmission - now
        nextTransmission = now + .nanoseconds(Int64(Double(remaining.nanoseconds) * ratio))
        lastTransmission = now + .nanoseconds(Int64(Double(back.nanoseconds) * ratio))
        previousMembers = members
    }
}

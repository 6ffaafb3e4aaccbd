public import TernCore

/// Loss-based bound (draft-ietf-rmcat-gcc-02 §6): over the last second of feedback, more than
/// 10 % of packets lost cuts the rate by half the loss ratio; under 2 % lets it grow 5 % per
/// second (libwebrtc's send-side rule); in between the draft holds. Tern lets a bound that a cut
/// put under the delay-based rate creep up 3 % a second there while the path does not queue:
/// random loss in the band (a lossy radio link) is not an answer to the rate, and a hold would
/// keep the rate wherever a chance window over 10 % early in the call cut it, for the whole
/// call; loss that does answer the rate (a policer) climbs past 10 % as the bound creeps and
/// cuts it again, so the bound stays within a few percent of the policed rate.
///
/// The draft's interval is an RTCP report's (about a second); transport-wide reports come every
/// 100 ms with a dozen packets at a few hundred kbit/s, and on a link with 5 % random loss one in
/// seven of them shows two
/// losses — over 10 % — so a per-report ratio would cut the rate for loss that is not
/// congestion. A cut starts the window afresh, and the next needs `minimumPackets` reported
/// after it: each loss cuts once, as each of the draft's reports covers its own interval
/// (a one-second window cut from every 300 ms counted the burst of a capacity drop three or four
/// times, and the bound fell to a fifth of the path's rate after the queue had drained).
/// Losses that come while the delay-based estimate sees the path queueing are that queue's
/// overflow (a drop-tail buffer filling): the delay-based cut already answers them, and
/// cutting the bound for them as well compounds two cuts for one cause and keeps the rate
/// under the path's for many seconds after the queue drained; they are counted and let go.
/// The bound acts on loss without a queue (a policer, a lossy radio link). Sans-I/O.
public struct LossBasedEstimator: Sendable {
    /// The current bound, bits per second.
    public private(set) var rate: Double
    public let minimumRate: Double
    public let maximumRate: Double
    /// The loss ratio of the last update (0…1).
    public private(set) var lossRatio = 0.0
    private var lastUpdate: Instant?
    private var lastDecrease: Instant?
    /// A cut for loss put the bound where it is (below the delay-based rate, until it grows
    /// back past it).
    private var heldByLoss = false
    /// Lost and reported packets of each report in the last `window` (at most 64 reports).
    private var reports: [(at: Instant, lost: Int, total: Int)] = []
    public static let window: Duration = .seconds(1)
    /// The fewest packets reported since the last cut that may cut again.
    public static let minimumPackets = 20
    /// Growth per second of a bound loss holds, in the 2–10 % band without a queue.
    static let holdBandGrowth = 0.03

    public init(startRate: Double, minimumRate: Double, maximumRate: Double) {
        self.minimumRate = minimumRate
        self.maximumRate = max(minimumRate, maximumRate)
        rate = min(max(startRate, minimumRate), self.maximumRate)
    }

    /// Takes one feedback report's packets at `now`, `queueing` when the delay-based estimate
    /// sees the path's queue at the same time; returns the new bound.
    @discardableResult
    public mutating func update(_ packets: [SentPacketHistory.Feedback], now: Instant, queueing: Bool = false) -> Double {
        guard !packets.isEmpty else { return rate }
        reports.append((now, packets.filter { $0.arrival == nil }.count, packets.count))
        reports.removeAll { now - $0.at > Self.window }
        if reports.count > 64 { reports.removeFirst(reports.count - 64) }
        let total = reports.reduce(0) { $0 + $1.total }
        lossRatio = total > 0 ? Double(reports.reduce(0) { $0 + $1.lost }) / Double(total) : 0
        let elapsed = lastUpdate.map { min((now - $0).seconds, 1) } ?? 0
        lastUpdate = now
        if lossRatio > 0.1 {
            if queueing {
                reports.removeAll()
                return rate
            }
            // At most one cut per 300 ms, each from the losses reported since the last one.
            if let last = lastDecrease, now - last < .milliseconds(300) { return rate }
            guard total >= Self.minimumPackets else { return rate }
            rate = max(minimumRate, rate * (1 - 0.5 * lossRatio))
            lastDecrease = now
            heldByLoss = true
            reports.removeAll()
        } else if lossRatio < 0.02 {
            rate = min(maximumRate, rate * (1 + 0.05 * elapsed))
        } else if heldByLoss, !queueing {
            rate = min(maximumRate, rate * (1 + Self.holdBandGrowth * elapsed))
        }
        return rate
    }

    /// A probe cluster got `measured` through: the bound makes room for it.
    public mutating func probed(_ measured: Double) {
        rate = min(maximumRate, max(rate, measured))
    }

    /// Keeps the bound near the rate actually used, so it can cut from there (not from far above),
    /// and, unless loss holds it lower, at least there: a bound the delay-based estimate's drain
    /// pulled down must not hold the rate back once the drain is over (only a cut for loss
    /// makes it the lower of the two, until it grows back past the delay-based rate).
    public mutating func follow(_ target: Double) {
        if heldByLoss, rate >= target { heldByLoss = false }
        rate = min(rate, max(target * 1.5, minimumRate))
        if !heldByLoss { rate = min(maximumRate, max(rate, target)) }
    }
}

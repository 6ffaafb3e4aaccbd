public import TernCore

/// Loss-based bound (draft-ietf-rmcat-gcc-02 §6): over the last second of feedback, more than
/// 10 % of packets lost cuts the rate by half the loss ratio; under 2 % lets it grow 5 % per
/// second (libwebrtc's send-side rule); in between it holds. The draft's interval is an RTCP
/// report's (about a second); transport-wide reports come every 100 ms with a dozen packets at
/// a few hundred kbit/s, and on a link with 5 % random loss one in seven of them shows two
/// losses — over 10 % — so a per-report ratio would cut the rate for loss that is not
/// congestion. Sans-I/O.
public struct LossBasedEstimator: Sendable {
    /// The current bound, bits per second.
    public private(set) var rate: Double
    public let minimumRate: Double
    public let maximumRate: Double
    /// The loss ratio of the last update (0…1).
    public private(set) var lossRatio = 0.0
    private var lastUpdate: Instant?
    private var lastDecrease: Instant?
    /// Lost and reported packets of each report in the last `window` (at most 64 reports).
    private var reports: [(at: Instant, lost: Int, total: Int)] = []
    public static let window: Duration = .seconds(1)

    public init(startRate: Double, minimumRate: Double, maximumRate: Double) {
        self.minimumRate = minimumRate
        self.maximumRate = max(minimumRate, maximumRate)
        rate = min(max(startRate, minimumRate), self.maximumRate)
    }

    /// Takes one feedback report's packets at `now`; returns the new bound.
    @discardableResult
    public mutating func update(_ packets: [SentPacketHistory.Feedback], now: Instant) -> Double {
        guard !packets.isEmpty else { return rate }
        reports.append((now, packets.filter { $0.arrival == nil }.count, packets.count))
        reports.removeAll { now - $0.at > Self.window }
        if reports.count > 64 { reports.removeFirst(reports.count - 64) }
        let total = reports.reduce(0) { $0 + $1.total }
        lossRatio = total > 0 ? Double(reports.reduce(0) { $0 + $1.lost }) / Double(total) : 0
        let elapsed = lastUpdate.map { min((now - $0).seconds, 1) } ?? 0
        lastUpdate = now
        if lossRatio > 0.1 {
            // At most one cut per 300 ms, so a burst reported twice is not counted twice.
            if let last = lastDecrease, now - last < .milliseconds(300) { return rate }
            rate = max(minimumRate, rate * (1 - 0.5 * lossRatio))
            lastDecrease = now
        } else if lossRatio < 0.02 {
            rate = min(maximumRate, rate * (1 + 0.05 * elapsed))
        }
        return rate
    }

    /// A probe cluster got `measured` through: the bound makes room for it.
    public mutating func probed(_ measured: Double) {
        rate = min(maximumRate, max(rate, measured))
    }

    /// Keeps the bound near the rate actually used, so it can cut from there (not from far above).
    public mutating func follow(_ target: Double) {
        rate = min(rate, max(target * 1.5, minimumRate))
    }
}

public import TernCore

/// A burst sent at a chosen rate to see whether the path carries it (libwebrtc's probe cluster):
/// `bytes` at `rate` bits per second, padding where media does not fill it; the feedback on its
/// packets says what arrived how fast (`ProbeRateEstimator`).
public struct ProbeCluster: Sendable, Equatable {
    public var id: Int
    /// Bits per second to send the cluster at.
    public var rate: Double
    /// Bytes the cluster carries: 15 ms at `rate`, at least 5 padding packets' worth (and at
    /// least `minimumPackets` packets, whatever their size).
    public var bytes: Int

    public init(id: Int, rate: Double) {
        self.id = id
        self.rate = rate
        bytes = max(Int(rate / 8 * 0.015), 5 * ProbeCluster.paddingPacketSize)
    }

    /// A cluster of `duration` at `rate` (a capacity test's, `CapacityTest`).
    public init(id: Int, rate: Double, duration: Duration) {
        self.id = id
        self.rate = rate
        bytes = max(Int(rate / 8 * duration.seconds), 5 * ProbeCluster.paddingPacketSize)
    }

    /// Padding per packet: RTP padding is at most 255 bytes (RFC 3550 §5.1).
    public static let paddingPacketSize = 255
    /// A cluster has at least this many packets, however large (the estimate needs 4 arrivals).
    public static let minimumPackets = 6
}

/// When to probe and how high (libwebrtc's ProbeController, in its simplest useful form):
/// when media starts, clusters at 3 × and 6 × the start rate; while each result reaches 70 % of
/// its cluster's rate, the next at 2 × the rate the estimate took from it — so a call that
/// starts low finds the capacity in a second instead of growing 8 % a second. Never above
/// `maximumRate`. Sans-I/O.
///
/// No probing after a drop that came with a queue: a short cluster cannot tell a path whose
/// capacity came back from a shaper's token bucket (16 KiB on the lab's TBF: a cluster at twice
/// a 500 kbit/s link passes it at line rate), and each false result put the queue back for a
/// second or more (libwebrtc probes after a drop only while application-limited, once). Tern
/// probes there only once the estimate has grown well past the capacity the path last showed
/// without a queue building (`capacityGrew`): by then a bucket would have been emptied. After
/// a drop without a queue (random loss), `check` probes every 5 s until the rate is back.
/// A run the capacity tests called for (`capacityGrew`) retries a cluster that fell short.
public struct ProbeController: Sendable {
    public let maximumRate: Double
    private var nextID = 1
    private var started = false
    /// True once `start` ran.
    public var hasStarted: Bool { started }
    /// The highest cluster of the current run, waiting for its result.
    private var awaiting: (cluster: Int, rate: Double, since: Instant)?
    private var lastProbe: Instant?
    /// Clusters the current run may send again at the same rate when one falls short or its
    /// result never comes (`capacityGrew` after capacity tests proved growth).
    private var retriesLeft = 0
    /// A run after capacity tests proved growth retries a cluster this often: a 15 ms cluster
    /// measures the sender's scheduling as much as the path (on a busy 2-core host a third of
    /// them in the lab's step up measured 0.6 of their rate or gave no result, and the estimate
    /// was left to its 8 % a second: 2.5 Mbit/s 5–9 s later than with the probes).
    static let grewRetries = 2
    public static let recoveryInterval: Duration = .seconds(5)
    /// A cluster whose result has not come in this long is given up on.
    static let resultTimeout: Duration = .seconds(1)

    public init(maximumRate: Double) {
        self.maximumRate = maximumRate
    }

    /// Media starts at `startRate`: the first two clusters.
    public mutating func start(startRate: Double, now: Instant) -> [ProbeCluster] {
        guard !started else { return [] }
        started = true
        return clusters([3 * startRate, 6 * startRate], now: now)
    }

    /// A cluster's measured rate came in, and the estimate took `applied` from it: while
    /// clusters get through, the next runs at twice what was applied.
    /// Only the run's highest cluster decides whether it goes on.
    public mutating func probeResult(cluster: Int, measured: Double, applied: Double, now: Instant) -> [ProbeCluster] {
        guard let awaiting, awaiting.cluster == cluster else { return [] }
        guard measured >= 0.7 * awaiting.rate, awaiting.rate < maximumRate else {
            self.awaiting = nil
            return retry(awaiting.rate, now: now)
        }
        return clusters([2 * applied], now: now)
    }

    /// Called with each feedback: the current run's highest cluster again if its result has not
    /// come within `resultTimeout` and the run may retry (`capacityGrew`).
    public mutating func retryLost(now: Instant) -> [ProbeCluster] {
        guard let awaiting, now - awaiting.since >= Self.resultTimeout else { return [] }
        return retry(awaiting.rate, now: now)
    }

    private mutating func retry(_ rate: Double, now: Instant) -> [ProbeCluster] {
        guard retriesLeft > 0 else { return [] }
        retriesLeft -= 1
        return clusters([rate], now: now)
    }

    /// Called with each feedback: a recovery cluster when the estimate has fallen under half of
    /// what the path delivered at its best in the last 30 s (`deliveredPeak`), the encoders want
    /// more (`limited`) and the path has not queued lately (`queued`: the caller's
    /// `BandwidthEstimator.pathQueues`); at most every `recoveryInterval`. A drop without a
    /// queue came from loss (the loss-based bound), not from a capacity a shaper's bucket could
    /// hide, so a probe finds the rate back safely; after a drop with a queue, no probe.
    public mutating func check(estimate: Double, deliveredPeak: Double?, limited: Bool, queued: Bool,
                               now: Instant) -> [ProbeCluster] {
        guard started, limited, !queued, estimate < maximumRate, let deliveredPeak, estimate < deliveredPeak / 2
        else { return [] }
        if let awaiting, now - awaiting.since < Self.resultTimeout { return [] }
        if let lastProbe, now - lastProbe < Self.recoveryInterval { return [] }
        retriesLeft = 0
        return clusters([2 * estimate], now: now)
    }

    /// The estimate outgrew the capacity the path showed at its last queue
    /// (`DelayBasedEstimator.takeCapacityGrew`): a cluster at 2 × `estimate`, and on from its
    /// result as at the start, unless a run is still waiting for its result.
    /// `provenByTests`: capacity tests passed past it (`CapacityTest`), so a cluster that falls
    /// short is retried (`grewRetries`); growth read from the excess alone (`KnownCapacity`) is
    /// less sure, and a receiver's jitter can make that excess.
    public mutating func capacityGrew(estimate: Double, provenByTests: Bool = false, now: Instant) -> [ProbeCluster] {
        guard started, estimate < maximumRate else { return [] }
        if let awaiting, now - awaiting.since < Self.resultTimeout { return [] }
        retriesLeft = provenByTests ? Self.grewRetries : 0
        return clusters([2 * estimate], now: now)
    }

    /// A cluster number for a cluster made elsewhere (`CapacityTest`), distinct from these.
    public mutating func reserveID() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    private mutating func clusters(_ rates: [Double], now: Instant) -> [ProbeCluster] {
        let rates = rates.map { min($0, maximumRate) }.sorted()
        guard let highest = rates.last, highest > 0 else { return [] }
        lastProbe = now
        let made = rates.map { rate in
            defer { nextID += 1 }
            return ProbeCluster(id: nextID, rate: rate)
        }
        awaiting = (made[made.count - 1].id, highest, now)
        return made
    }
}

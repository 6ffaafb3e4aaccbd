public import TernCore

/// A deterministic two-ended network link for sans-I/O tests: datagrams go in
/// with the time they were sent and come out at the time they arrive, after
/// loss, duplication, delay, jitter and reordering drawn from a seeded generator.
///
/// Nothing here reads a clock or starts a thread. A test loop does:
/// `link.send(from:datagram:at:)` for what a core emits, then
/// `link.deliverDue(at:)` to get what arrives, and advances time to
/// `min(link.nextDeliveryTime, cores' next timeouts)`.
public struct SimulatedLink: Sendable {
    /// One end of the link.
    public enum End: Sendable, Hashable {
        case a, b
        public var other: End { self == .a ? .b : .a }
    }

    /// What the link does to datagrams.
    public struct Conditions: Sendable, Equatable {
        /// Probability that a datagram is dropped.
        public var lossRate: Double
        /// Probability that a datagram is delivered twice.
        public var duplicateRate: Double
        /// One-way delay.
        public var delay: Duration
        /// Extra delay drawn uniformly from 0...jitter; with jitter, datagrams can reorder.
        public var jitter: Duration

        public init(lossRate: Double = 0, duplicateRate: Double = 0, delay: Duration = .milliseconds(1), jitter: Duration = .zero) {
            self.lossRate = lossRate
            self.duplicateRate = duplicateRate
            self.delay = delay
            self.jitter = jitter
        }

        /// A perfect link with 1 ms one-way delay.
        public static let perfect = Conditions()
    }

    /// A datagram arriving at an end.
    public struct Delivery: Sendable {
        public var to: End
        public var datagram: [UInt8]
        public var at: Instant
    }

    public var conditions: Conditions
    private var random: SeededRandom
    private var inFlight: [Delivery] = []
    private var sequence: [Int] = []
    private var nextSequence = 0

    /// Counters, for tests to state what the link did.
    public private(set) var sent = 0
    public private(set) var dropped = 0
    public private(set) var duplicated = 0

    public init(conditions: Conditions = .perfect, seed: UInt64 = 1) {
        self.conditions = conditions
        self.random = SeededRandom(seed: seed)
    }

    /// Puts a datagram on the link.
    public mutating func send(from end: End, datagram: [UInt8], at now: Instant) {
        sent += 1
        if random.chance(conditions.lossRate) {
            dropped += 1
            return
        }
        let copies = random.chance(conditions.duplicateRate) ? 2 : 1
        if copies == 2 { duplicated += 1 }
        for _ in 0..<copies {
            var arrival = now + conditions.delay
            if conditions.jitter > .zero {
                let extra = Int64.random(in: 0...conditions.jitter.nanoseconds, using: &random)
                arrival += .nanoseconds(extra)
            }
            inFlight.append(Delivery(to: end.other, datagram: datagram, at: arrival))
            sequence.append(nextSequence)
            nextSequence += 1
        }
    }

    /// The earliest arrival still in flight, if any.
    public var nextDeliveryTime: Instant? { inFlight.map(\.at).min() }

    /// Whether nothing is in flight.
    public var isIdle: Bool { inFlight.isEmpty }

    /// Removes and returns every datagram that has arrived by `now`, in arrival order
    /// (ties in sending order).
    public mutating func deliverDue(at now: Instant) -> [Delivery] {
        var due: [(Delivery, Int)] = []
        var keptFlight: [Delivery] = []
        var keptSequence: [Int] = []
        for (delivery, seq) in zip(inFlight, sequence) {
            if delivery.at <= now { due.append((delivery, seq)) } else {
                keptFlight.append(delivery)
                keptSequence.append(seq)
            }
        }
        inFlight = keptFlight
        sequence = keptSequence
        due.sort { ($0.0.at, $0.1) < ($1.0.at, $1.1) }
        return due.map(\.0)
    }
}

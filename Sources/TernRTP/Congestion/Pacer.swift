public import TernCore

/// Spreads what the media engine sends over time at a multiple of the bandwidth estimate, so a
/// keyframe or a burst of retransmissions does not arrive at the bottleneck all at once and
/// fill its queue (libwebrtc's paced sender; draft-ietf-rmcat-gcc-02 §2 assumes one). Packets
/// wait in three queues and leave audio first, then retransmissions, then new video, each queue
/// in order. Sans-I/O: packets and time in, packets out; `nextTimeout` says when the next may go.
///
/// The budget is a byte count that grows at the pacing rate and shrinks by each packet sent: a
/// packet leaves while it is not negative, so the sender runs at most one packet ahead of the
/// rate. Nothing is saved while the queues are empty; while packets wait, a late poll may catch
/// up on at most `maximumBurst` of sending.
///
/// Probing (`startProbe`): while a `ProbeCluster` runs, packets leave at the cluster's rate
/// instead, each tagged with the cluster, and where no media waits the pacer asks for padding
/// (`Output.padding`) until the cluster's bytes are sent.
///
/// Bounded: at most `maximumQueuedPackets` wait (beyond that a new packet is dropped and
/// counted); when what waits would not have left `maximumQueueTime` after the oldest of it was
/// queued, the rate rises so that it does (libwebrtc's queue time limit: a stale queue is worse
/// than a burst).
public struct Pacer<Packet: Sendable>: Sendable {
    /// Which queue a packet waits in; lower raw values leave first.
    public enum Priority: Int, Sendable, CaseIterable {
        /// Late audio is useless and audio is small: it goes first.
        case audio
        /// Repairs a frame the receiver is waiting for, so before new video.
        case retransmission
        case video
    }

    public struct Configuration: Sendable, Equatable {
        /// The pacing rate as a multiple of the target rate (libwebrtc's pacing factor): room
        /// for an encoder's overshoot and a keyframe without building a queue here.
        public var pacingFactor: Double = 2.5
        /// The most sending time the budget saves while nothing waits.
        public var maximumBurst: Duration = .milliseconds(5)
        public var maximumQueuedPackets = 2_048
        public var maximumQueueTime: Duration = .seconds(2)

        public init(pacingFactor: Double = 2.5, maximumBurst: Duration = .milliseconds(5),
                    maximumQueuedPackets: Int = 2_048, maximumQueueTime: Duration = .seconds(2)) {
            self.pacingFactor = pacingFactor
            self.maximumBurst = maximumBurst
            self.maximumQueuedPackets = maximumQueuedPackets
            self.maximumQueueTime = maximumQueueTime
        }
    }

    /// What may leave now: a queued packet, or padding the caller builds (`bytes` on the wire,
    /// RTP header included); with the probe cluster it belongs to, if any.
    public enum Output: Sendable {
        case packet(Packet, probeCluster: Int?)
        case padding(bytes: Int, probeCluster: Int)
    }

    private struct Queued: Sendable {
        var packet: Packet
        var size: Int
        var queuedAt: Instant
    }

    public let configuration: Configuration
    /// One FIFO per priority; `heads[i]` is the index of queue i's first packet.
    private var queues: [[Queued]] = Array(repeating: [], count: Priority.allCases.count)
    private var heads: [Int] = Array(repeating: 0, count: Priority.allCases.count)
    /// Bits per second packets leave at while nothing is late.
    public private(set) var pacingRate: Double
    /// Bytes that may leave now; negative while the last packet is still being "paid for".
    private var budget: Double = 0
    private var lastUpdate: Instant?
    /// True when the queues were empty at `lastUpdate`: no credit builds up until the next poll.
    private var idle = true
    /// Bytes that may still go into flight before the congestion window is full
    /// (`BandwidthEstimator.windowRoom`; nil: no window). Each packet that leaves takes its size
    /// off; once it is used up only audio leaves — no video, retransmissions or probe padding —
    /// until feedback reports what is in flight and the caller sets it again (libwebrtc's
    /// congestion window, which it ships on). A path whose capacity dropped under the sender then
    /// drains its queue instead of being kept full at the old rate, and a backlog released at
    /// once (`maximumQueueTime`) is still held to the window, packet by packet.
    public var windowRoom: Int?
    /// Whether the congestion window is full.
    public var congested: Bool { windowRoom.map { $0 <= 0 } ?? false }
    /// Bytes waiting in each queue (by `Priority.rawValue`).
    private var queuedBytesByPriority = Array(repeating: 0, count: Priority.allCases.count)
    /// Bytes and packets waiting.
    public var queuedBytes: Int { queuedBytesByPriority.reduce(0, +) }
    public private(set) var queuedPackets = 0
    /// Packets dropped because `maximumQueuedPackets` were already waiting.
    public private(set) var droppedPackets = 0
    /// Probe clusters to run, the first one running; at most 8 wait.
    private var probes: [(cluster: ProbeCluster, remaining: Int, packetsLeft: Int)] = []
    /// Padding bytes sent for probes.
    public private(set) var paddingBytesSent = 0

    /// A pacer for `targetRate` bits per second.
    public init(targetRate: Double, configuration: Configuration = Configuration()) {
        self.configuration = configuration
        pacingRate = max(1, targetRate * configuration.pacingFactor)
    }

    /// While set, nothing leaves faster than this, bits per second — no burst allowance, no
    /// catching up on a stale queue (`BandwidthEstimator.pacingCeiling`: a queue draining).
    public var rateCeiling: Double?

    /// Follows a new target rate, bits per second.
    public mutating func setTargetRate(_ rate: Double) {
        pacingRate = max(1, rate * configuration.pacingFactor)
    }

    /// Queues a packet of `size` bytes on the wire; false (and counted) when the queue is full.
    @discardableResult
    public mutating func enqueue(_ packet: Packet, size: Int, priority: Priority, now: Instant) -> Bool {
        guard queuedPackets < configuration.maximumQueuedPackets else {
            droppedPackets &+= 1
            return false
        }
        queues[priority.rawValue].append(Queued(packet: packet, size: max(0, size), queuedAt: now))
        queuedBytesByPriority[priority.rawValue] += max(0, size)
        queuedPackets += 1
        return true
    }

    /// Bytes waiting in the queue of `priority`.
    public func queuedBytes(_ priority: Priority) -> Int {
        queuedBytesByPriority[priority.rawValue]
    }

    /// Runs `cluster` after the ones already waiting.
    public mutating func startProbe(_ cluster: ProbeCluster) {
        guard probes.count < 8 else { return }
        if probes.isEmpty { budget = max(budget, 0) }
        probes.append((cluster, cluster.bytes, ProbeCluster.minimumPackets))
    }

    /// Stops the cluster `id` if it is running or waiting (a capacity test that ended).
    public mutating func endProbe(_ id: Int) {
        probes.removeAll { $0.cluster.id == id }
        idle = firstNonEmptyQueue == nil && probes.isEmpty
    }

    /// The packets that may leave at `now`, in the order to send them (no probing: padding is
    /// never asked for).
    public mutating func poll(now: Instant) -> [Packet] {
        poll(now: now, paddingPacketBytes: 0).compactMap { if case let .packet(packet, _) = $0 { packet } else { nil } }
    }

    /// What may leave at `now`: queued packets, and while a probe runs with nothing queued,
    /// padding requests of `paddingPacketBytes` each (0: none).
    public mutating func poll(now: Instant, paddingPacketBytes: Int) -> [Output] {
        refill(now: now)
        var out: [Output] = []
        while budget >= 0 {
            let cluster = congested ? nil : probes.first?.cluster.id
            if let queue = firstSendableQueue {
                let next = queues[queue][heads[queue]]
                heads[queue] += 1
                queuedBytesByPriority[queue] -= next.size
                queuedPackets -= 1
                budget -= Double(next.size)
                windowRoom = windowRoom.map { $0 - next.size }
                out.append(.packet(next.packet, probeCluster: cluster))
                compact(queue)
                probeSent(next.size)
            } else if let cluster, paddingPacketBytes > 0 {
                budget -= Double(paddingPacketBytes)
                windowRoom = windowRoom.map { $0 - paddingPacketBytes }
                paddingBytesSent += paddingPacketBytes
                out.append(.padding(bytes: paddingPacketBytes, probeCluster: cluster))
                probeSent(paddingPacketBytes)
            } else {
                break
            }
        }
        idle = firstNonEmptyQueue == nil && probes.isEmpty
        return out
    }

    private mutating func probeSent(_ bytes: Int) {
        guard !probes.isEmpty else { return }
        probes[0].remaining -= bytes
        probes[0].packetsLeft -= 1
        if probes[0].remaining <= 0, probes[0].packetsLeft <= 0 { probes.removeFirst() }
    }

    /// Nothing waits and no probe is to run, so `nextTimeout` is nil (a cheap test for callers
    /// that ask on every datagram).
    public var isEmpty: Bool { queuedPackets == 0 && probes.isEmpty }

    /// When the next waiting packet may leave (nil when nothing waits, or only what the
    /// congestion window holds back: feedback, which reopens it, wakes the sender anyway).
    public var nextTimeout: Instant? {
        let waiting = firstSendableQueue != nil || (!congested && !probes.isEmpty)
        guard waiting, let lastUpdate else { return waiting ? .zero : nil }
        guard budget < 0 else { return lastUpdate }
        return lastUpdate + .nanoseconds(Int64((-budget * 8 / effectiveRate(now: lastUpdate) * 1e9).rounded(.up)))
    }

    /// Drops what waits in the queue of `priority` (stale video the sender replaces with a
    /// keyframe); returns how many packets went, also counted in `discardedPackets`.
    @discardableResult
    public mutating func discard(_ priority: Priority) -> Int {
        let queue = priority.rawValue
        let count = queues[queue].count - heads[queue]
        queues[queue].removeAll(keepingCapacity: true)
        heads[queue] = 0
        queuedBytesByPriority[queue] = 0
        queuedPackets -= count
        discardedPackets &+= count
        idle = firstNonEmptyQueue == nil && probes.isEmpty
        return count
    }
    /// Packets dropped by `discard`.
    public private(set) var discardedPackets = 0

    /// Forgets everything waiting (the transport cannot send: no keys yet).
    public mutating func discardQueued() {
        queues = Array(repeating: [], count: Priority.allCases.count)
        heads = Array(repeating: 0, count: Priority.allCases.count)
        queuedBytesByPriority = Array(repeating: 0, count: Priority.allCases.count)
        queuedPackets = 0
        probes = []
        idle = true
    }

    /// The pacing rate, raised when what waits would otherwise leave later than
    /// `maximumQueueTime` after the oldest of it was queued.
    private func effectiveRate(now: Instant) -> Double {
        if let rateCeiling { return max(min(uncappedRate(now: now), rateCeiling), 1) }
        return uncappedRate(now: now)
    }

    private func uncappedRate(now: Instant) -> Double {
        if let probe = probes.first { return max(probe.cluster.rate, 1) }
        var oldest: Instant?
        for index in queues.indices where heads[index] < queues[index].count {
            let queuedAt = queues[index][heads[index]].queuedAt
            if oldest.map({ queuedAt < $0 }) ?? true { oldest = queuedAt }
        }
        guard let oldest else { return pacingRate }
        let remaining = max((configuration.maximumQueueTime - (now - oldest)).seconds, 0.01)
        return max(pacingRate, Double(queuedBytes) * 8 / remaining)
    }

    private var firstNonEmptyQueue: Int? {
        queues.indices.first { heads[$0] < queues[$0].count }
    }

    /// The first queue with a packet that may leave now (only audio while congested).
    private var firstSendableQueue: Int? {
        let audio = Priority.audio.rawValue
        if congested { return heads[audio] < queues[audio].count ? audio : nil }
        return firstNonEmptyQueue
    }

    private mutating func refill(now: Instant) {
        defer { lastUpdate = now }
        guard let lastUpdate, now > lastUpdate else { return }
        let rate = effectiveRate(now: now)
        let cap = idle ? 0 : rate / 8 * configuration.maximumBurst.seconds
        budget = min(cap, budget + rate / 8 * (now - lastUpdate).seconds)
    }

    /// Drops sent entries from the front once they are half the array, so a queue does not grow
    /// without bound while it never empties.
    private mutating func compact(_ queue: Int) {
        if heads[queue] == queues[queue].count {
            queues[queue].removeAll(keepingCapacity: true)
            heads[queue] = 0
        } else if heads[queue] > 64, heads[queue] * 2 > queues[queue].count {
            queues[queue].removeFirst(heads[queue])
            heads[queue] = 0
        }
    }
}

public import TernCore

/// What a probe cluster found (libwebrtc's ProbeBitrateEstimator): from the transport-wide
/// feedback on the cluster's packets, the rate they were sent at and the rate they arrived at;
/// the path carries at most the lower of the two, and when they arrived markedly slower than
/// sent, the path was saturated: 95 % of the arrival rate. A cluster counts once most of its
/// packets are reported (at least 4, and 80 % of those sent). Sans-I/O, bounded: at most
/// `maximumTrackedPackets` probe packets and 16 clusters are remembered.
public struct ProbeRateEstimator: Sendable {
    private struct Cluster: Sendable {
        var sent = 0
        var reported = 0
        var firstSend: Instant?
        var lastSend: Instant?
        var lastSendSize = 0
        var bytesSent = 0
        var firstArrival: Duration?
        var firstArrivalSize = 0
        var lastArrival: Duration?
        var bytesReceived = 0
        var received = 0
        var done = false
    }

    /// Sequence number (unwrapped) → cluster id, for the packets sent as probes.
    private var clusterOf: [Int64: Int] = [:]
    private var clusters: [Int: Cluster] = [:]
    private var order: [Int] = []
    public static let maximumTrackedPackets = 4_096

    public init() {}

    /// A packet of cluster `id` left (its unwrapped transport-wide sequence number).
    public mutating func sent(sequence: Int64, cluster id: Int) {
        guard clusterOf.count < Self.maximumTrackedPackets else { return }
        clusterOf[sequence] = id
        if clusters[id] == nil {
            clusters[id] = Cluster()
            order.append(id)
            if order.count > 16 { forget(order.removeFirst()) }
        }
        clusters[id]?.sent += 1
    }

    /// Feedback came in: the clusters it completes, with their rates.
    public mutating func update(_ packets: [SentPacketHistory.Feedback]) -> [(cluster: Int, rate: Double)] {
        var completed: [(cluster: Int, rate: Double)] = []
        for packet in packets {
            guard let id = clusterOf.removeValue(forKey: packet.sequence), var cluster = clusters[id], !cluster.done else { continue }
            cluster.reported += 1
            if cluster.firstSend.map({ packet.sendTime < $0 }) ?? true { cluster.firstSend = packet.sendTime }
            if cluster.lastSend.map({ packet.sendTime >= $0 }) ?? true {
                cluster.lastSend = packet.sendTime
                cluster.lastSendSize = packet.size
            }
            cluster.bytesSent += packet.size
            if let arrival = packet.arrival {
                cluster.received += 1
                cluster.bytesReceived += packet.size
                if cluster.firstArrival.map({ arrival < $0 }) ?? true {
                    cluster.firstArrival = arrival
                    cluster.firstArrivalSize = packet.size
                }
                if cluster.lastArrival.map({ arrival > $0 }) ?? true { cluster.lastArrival = arrival }
            }
            if cluster.reported * 10 >= cluster.sent * 8, cluster.received >= 4, let rate = Self.rate(of: cluster) {
                cluster.done = true
                completed.append((id, rate))
            }
            clusters[id] = cluster
        }
        return completed
    }

    private static func rate(of cluster: Cluster) -> Double? {
        guard let firstSend = cluster.firstSend, let lastSend = cluster.lastSend,
              let firstArrival = cluster.firstArrival, let lastArrival = cluster.lastArrival else { return nil }
        let sendSpan = (lastSend - firstSend).seconds, arrivalSpan = (lastArrival - firstArrival).seconds
        guard sendSpan > 0.001, arrivalSpan > 0.001 else { return nil }
        // The last packet sent ends the send span, the first received starts the arrival span:
        // neither's bytes were sent (received) within it.
        let sendRate = Double(cluster.bytesSent - cluster.lastSendSize) * 8 / sendSpan
        let receiveRate = Double(cluster.bytesReceived - cluster.firstArrivalSize) * 8 / arrivalSpan
        // Arrivals faster than sends by far are a measuring artefact (bunched feedback).
        guard receiveRate <= 2 * sendRate else { return nil }
        return receiveRate < 0.9 * sendRate ? 0.95 * receiveRate : min(sendRate, receiveRate)
    }

    private mutating func forget(_ id: Int) {
        clusters[id] = nil
        clusterOf = clusterOf.filter { $0.value != id }
    }
}

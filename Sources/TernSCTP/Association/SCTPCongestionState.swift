/// The sender's congestion control at one moment (RFC 9260 §7.2), for statistics (W3C
/// `RTCSctpTransportStats`) and for tracing a transfer's ramp-up.
public struct SCTPCongestionState: Sendable, Equatable {
    public enum Phase: String, Sendable {
        /// cwnd doubles every round trip (§7.2.1).
        case slowStart = "slow-start"
        /// HyStart++'s Conservative Slow Start after the RTT rose (RFC 9406 §4.2).
        case conservativeSlowStart = "conservative-slow-start"
        /// One packet more per round trip (§7.2.2).
        case congestionAvoidance = "congestion-avoidance"
        /// After a loss, until the data outstanding at the loss is acknowledged (§7.2.4).
        case fastRecovery = "fast-recovery"
    }

    /// cwnd, bytes.
    public var congestionWindow: Int
    /// ssthresh, bytes; nil until slow start first ended.
    public var slowStartThreshold: Int?
    /// Bytes sent and not yet acknowledged.
    public var bytesInFlight: Int
    /// DATA chunks sent and not yet acknowledged.
    public var unacknowledgedChunks: Int
    /// The peer's receiver window as last advertised, minus what is in flight.
    public var peerReceiverWindow: Int
    /// Smoothed round-trip time (§6.3.1), once measured.
    public var smoothedRoundTripTime: Duration?
    /// The packet size in use (the base size until path MTU discovery finds a larger one).
    public var packetSize: Int
    public var phase: Phase
}

extension SCTPAssociation {
    /// The sender's congestion state now.
    public var congestion: SCTPCongestionState {
        let phase: SCTPCongestionState.Phase
        if inFastRecovery {
            phase = .fastRecovery
        } else if ssthresh != Int(Int32.max), cwnd >= ssthresh {
            phase = .congestionAvoidance
        } else if case .conservative = hyStart.phase {
            phase = .conservativeSlowStart
        } else {
            phase = .slowStart
        }
        return SCTPCongestionState(
            congestionWindow: cwnd,
            slowStartThreshold: ssthresh == Int(Int32.max) ? nil : ssthresh,
            bytesInFlight: flightSize, unacknowledgedChunks: outstanding.count - gapAckedCount,
            peerReceiverWindow: peerReceiverWindow, smoothedRoundTripTime: rto.srtt,
            packetSize: pathMTU.packetSize, phase: phase)
    }
}

public import TernSDP
/// The pair ICE selected to carry data (W3C `RTCIceCandidatePair`).
public struct ICECandidatePair: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Our side.
    public var local: ICECandidate
    /// The peer's side.
    public var remote: ICECandidate
    /// W3C `currentRoundTripTime`: the latest round-trip time of this pair, measured with
    /// Tern's own probes on it (`ICEConfiguration.roundTripProbeInterval`; libnice 0.1.21
    /// exposes no check timing). Nil until the first answer, and with a non-Tern peer.
    /// Filled in `ICETransport.selectedPair`; nil in `.selectedPairChanged` events.
    public var roundTripTime: Duration?
    /// W3C `totalRoundTripTime`: the sum of every round-trip time measured on this pair.
    public var totalRoundTripTime: Duration
    /// W3C `requestsSent`: probes Tern sent on this pair to measure it (libnice's own checks
    /// and consent requests are not counted; libnice does not report them).
    public var requestsSent: UInt64
    /// W3C `responsesReceived`: authenticated answers to those probes (so
    /// `totalRoundTripTime / responsesReceived` is the mean round-trip time).
    public var responsesReceived: UInt64

    /// Memberwise initialiser.
    public init(local: ICECandidate, remote: ICECandidate, roundTripTime: Duration? = nil,
                totalRoundTripTime: Duration = .zero, requestsSent: UInt64 = 0, responsesReceived: UInt64 = 0) {
        self.local = local
        self.remote = remote
        self.roundTripTime = roundTripTime
        self.totalRoundTripTime = totalRoundTripTime
        self.requestsSent = requestsSent
        self.responsesReceived = responsesReceived
    }

    private enum CodingKeys: String, CodingKey {
        case local, remote, roundTripTime, totalRoundTripTime, requestsSent, responsesReceived
    }

    /// Decodes a pair; the statistics default to none, so traces written before they existed
    /// still decode.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(local: try c.decode(ICECandidate.self, forKey: .local),
                  remote: try c.decode(ICECandidate.self, forKey: .remote),
                  roundTripTime: try c.decodeIfPresent(Duration.self, forKey: .roundTripTime),
                  totalRoundTripTime: try c.decodeIfPresent(Duration.self, forKey: .totalRoundTripTime) ?? .zero,
                  requestsSent: try c.decodeIfPresent(UInt64.self, forKey: .requestsSent) ?? 0,
                  responsesReceived: try c.decodeIfPresent(UInt64.self, forKey: .responsesReceived) ?? 0)
    }

    /// RFC 8445 §6.1.2.3: 2^32·MIN(G,D) + 2·MAX(G,D) + (G>D ? 1 : 0), where G is the controlling
    /// agent's candidate priority and D the controlled agent's.
    public func priority(localIsControlling: Bool) -> UInt64 {
        let g = UInt64(localIsControlling ? local.priority : remote.priority)
        let d = UInt64(localIsControlling ? remote.priority : local.priority)
        return (min(g, d) << 32) + 2 * max(g, d) + (g > d ? 1 : 0)
    }

    /// True when both ends send through their own addresses with no TURN server in between.
    public var isDirect: Bool { local.candidateType != .relay && remote.candidateType != .relay }

    public var description: String { "\(local) <-> \(remote)" }
}

/// What an `ICETransport` tells its owner, in order (`ICETransport.events`).
public enum ICEEvent: Sendable, Hashable {
    /// A local candidate to signal to the peer (trickle ICE, RFC 8838 §4).
    case candidate(ICECandidate)
    /// Local gathering finished: signal end-of-candidates (RFC 8838 §4.4).
    case gatheringComplete
    /// The gathering state changed.
    case gatheringStateChanged(ICEGatheringState)
    /// The transport state changed.
    case stateChanged(ICETransportState)
    /// ICE selected a (new) pair to carry data.
    case selectedPairChanged(ICECandidatePair)
    /// Before any pair is selected, a connectivity check succeeded on this pair: `send` works
    /// from now on (RFC 8445 §12.1, `ICEConfiguration.sendsOnValidPairs`). Once per transport,
    /// and only where libnice has Tern's patch; `.selectedPairChanged` follows when nomination
    /// completes.
    case validPairFound(ICECandidatePair)
    /// A remote candidate was not used (e.g. an mDNS name that did not resolve).
    case remoteCandidateDropped(ICECandidate, reason: String)
}

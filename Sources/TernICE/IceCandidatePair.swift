/// The pair ICE selected to carry data (W3C `RTCIceCandidatePair`).
public struct IceCandidatePair: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Our side.
    public var local: IceCandidate
    /// The peer's side.
    public var remote: IceCandidate
    /// Round-trip time of the last check, when the library exposes it.
    /// libnice 0.1.21 has no API for it, so this is nil there.
    public var roundTripTime: Duration?

    /// Memberwise initialiser.
    public init(local: IceCandidate, remote: IceCandidate, roundTripTime: Duration? = nil) {
        self.local = local
        self.remote = remote
        self.roundTripTime = roundTripTime
    }

    /// True when both ends send through their own addresses with no TURN server in between.
    public var isDirect: Bool { local.type != .relay && remote.type != .relay }

    public var description: String { "\(local) <-> \(remote)" }
}

/// What an `IceTransport` tells its owner, in order (`IceTransport.events`).
public enum IceEvent: Sendable, Hashable {
    /// A local candidate to signal to the peer (trickle ICE, RFC 8838 §4).
    case candidate(IceCandidate)
    /// Local gathering finished: signal end-of-candidates (RFC 8838 §4.4).
    case gatheringComplete
    /// The gathering state changed.
    case gatheringStateChanged(IceGatheringState)
    /// The transport state changed.
    case stateChanged(IceTransportState)
    /// ICE selected a (new) pair to carry data.
    case selectedPairChanged(IceCandidatePair)
    /// A remote candidate was not used (e.g. an mDNS name that did not resolve).
    case remoteCandidateDropped(IceCandidate, reason: String)
}

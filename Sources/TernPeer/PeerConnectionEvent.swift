public import TernDTLS
public import TernICE
public import TernSDP

/// What a `PeerConnection` reports, in order, on `PeerConnection.events`
/// (the W3C events `icecandidate`, `*statechange`, `negotiationneeded`, `datachannel`, `track`).
public enum PeerConnectionEvent: Sendable {
    /// A local candidate to send to the peer; `nil` is end-of-candidates (W3C `icecandidate` with null).
    case iceCandidate(ICECandidateInit?)
    case iceGatheringStateChanged(ICEGatheringState)
    case iceConnectionStateChanged(ICETransportState)
    case connectionStateChanged(PeerConnectionState)
    case signalingStateChanged(SignalingState)
    /// ICE selected a (new) candidate pair.
    case selectedCandidatePairChanged(ICECandidatePair)
    /// The DTLS handshake finished: role, cipher suite, SRTP profile, both fingerprints.
    case dtlsConnected(DTLSConnectionInfo)
    /// The DTLS handshake or association failed, with the named reason.
    case dtlsFailed(String)
    /// Something changed that needs an offer/answer exchange (W3C `negotiationneeded`).
    case negotiationNeeded
    /// The remote side opened a data channel (W3C `datachannel`).
    case dataChannel(DataChannel)
    /// Media from the remote side is arriving on a new track (W3C `track`).
    case track(RemoteTrack)
}

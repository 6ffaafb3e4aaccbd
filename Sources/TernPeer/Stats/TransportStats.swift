/// W3C `RTCPeerConnectionStats`.
public struct PeerConnectionStats: Sendable, Encodable {
    static let type = "peer-connection"
    public var id = "PC"
    public var dataChannelsOpened: Int
    public var dataChannelsClosed: Int
}

/// W3C `RTCTransportStats` (the one bundled transport), plus what the transport refused.
public struct TransportStats: Sendable, Encodable {
    static let type = "transport"
    public var id = "T"
    public var iceState: String
    public var dtlsState: String
    public var selectedCandidatePairId: String?
    public var dtlsRole: String?
    public var tlsVersion: String?
    public var dtlsCipher: String?
    public var srtpCipher: String?
    public var localCertificateId: String?
    public var remoteCertificateId: String?
    /// Datagrams (DTLS, SRTP, SRTCP) sent and received on the transport and their bytes
    /// (`DatagramTraffic`); absent before ICE exists.
    public var packetsSent: UInt64?
    public var bytesSent: UInt64?
    public var packetsReceived: UInt64?
    public var bytesReceived: UInt64?
    /// Not W3C: whether the DTLS handshake rode in the connectivity checks (both descriptions
    /// offered it, `PeerConfiguration.negotiatesDTLSInChecks`), and how many DTLS payloads the
    /// peer's checks and replies carried to us; absent before ICE exists.
    public var dtlsInChecks: Bool?
    public var dtlsPayloadsReceivedInChecks: Int?
    /// Not W3C: remote candidates refused (unusable, over a limit, mDNS names that do not resolve,
    /// more than 256 trickled before their description).
    public var remoteCandidatesDropped: Int?
    /// Not W3C: SRTP packets whose authentication tag did not verify.
    public var srtpAuthenticationFailures: Int?
    /// Not W3C: SRTP packets refused as replays.
    public var srtpReplaysDropped: Int?
    /// Not W3C: datagrams and packets that did not parse, dropped and counted.
    public var malformedPacketsDropped: Int?
    /// Not W3C: RTP packets for no configured stream.
    public var unroutableRtpPackets: Int?
    /// Not W3C: new RTP streams refused past the per-section limit.
    public var rtpStreamsRefused: Int?
    /// Not W3C: RTCP senders refused past the limit.
    public var rtcpSendersRefused: Int?
    /// Not W3C: RTP packets the pacer refused because its queue was full.
    public var rtpPacketsDroppedByPacer: Int?
}

/// W3C `RTCIceCandidatePairStats` of the selected pair.
public struct CandidatePairStats: Sendable, Encodable {
    static let type = "candidate-pair"
    public var id = "CP"
    public var localCandidateId = "LC"
    public var remoteCandidateId = "RC"
    public var transportId = "T"
    public var state = "succeeded"
    public var nominated = true
    public var totalRoundTripTime: Double
    /// Absent until a measurement exists (a peer that does not answer Tern's probe).
    public var currentRoundTripTime: Double?
    public var requestsSent: UInt64
    public var responsesReceived: UInt64
    /// The bandwidth estimate for everything the connection sends over RTP, bit/s (present
    /// while it sends media; Docs/CONGESTION.md).
    public var availableOutgoingBitrate: Double?
    /// Tern adds beyond W3C: what `availableOutgoingBitrate` is the lowest of, bit/s — the
    /// delay-based estimate (transport-wide feedback's queue), the loss-based bound, and the
    /// peer's REMB if it sends one — and the loss ratio of the last second of transport-wide
    /// feedback (0…1). Present with `availableOutgoingBitrate` (Docs/CONGESTION.md).
    public var delayBasedBitrate: Double?
    public var lossBasedBitrate: Double?
    public var remoteEstimatedBitrate: Double?
    public var transportLossRatio: Double?
    /// Tern adds beyond W3C, to read the estimate's decisions from a call's stats
    /// (Docs/CONGESTION.md, "Stats"): the one-way queue delay of the latest transport-wide
    /// report's least delayed packet and of its newest packets, ms; the capacity the path showed
    /// at its last queue (`KnownCapacity`), bit/s; what is in flight and the congestion window,
    /// bytes; probe clusters started and the latest probe result, bit/s.
    public var queueDelayMs: Double?
    public var newestQueueDelayMs: Double?
    public var knownCapacityBitrate: Double?
    public var bytesInFlight: Int?
    public var congestionWindowBytes: Int?
    public var probeClustersStarted: Int?
    public var lastProbeBitrate: Double?
    /// Tern adds beyond W3C: capacity tests (`CapacityTest`, Docs/CONGESTION.md) that passed
    /// and failed, and whether one runs now.
    public var capacityTestsPassed: Int?
    public var capacityTestsFailed: Int?
    public var capacityTestRunning: Bool?
    /// Tern adds beyond W3C: bytes waiting in the pacer (media the encoders made that has not
    /// left yet: a sender-side queue the round trip does not show).
    public var pacerQueuedBytes: Int?
}

/// W3C `RTCIceCandidateStats` (`local-candidate` or `remote-candidate`).
public struct ICECandidateStats: Sendable, Encodable {
    public var id: String
    public var transportId = "T"
    public var address: String
    public var port: Int
    /// `udp` or `tcp`.
    public var `protocol`: String
    public var candidateType: String
    public var priority: Int
}

/// W3C `RTCCertificateStats`.
public struct CertificateStats: Sendable, Encodable {
    static let type = "certificate"
    public var id: String
    public var fingerprint: String
    public var fingerprintAlgorithm: String
}

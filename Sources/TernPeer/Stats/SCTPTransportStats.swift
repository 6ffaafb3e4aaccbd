/// W3C `RTCSctpTransportStats`, plus what the sender's congestion control is doing and what a
/// hostile or broken peer made the association refuse (not W3C; Docs/SCTP.md, Docs/SECURITY.md).
public struct SCTPTransportStats: Sendable, Encodable {
    static let type = "sctp-transport"
    public var id = "SCTP"
    public var transportId = "T"
    public var congestionWindow: Int
    public var receiverWindow: Int
    public var mtu: Int
    public var unackData: Int
    /// Seconds; absent until measured.
    public var smoothedRoundTripTime: Double?
    public var bytesInFlight: Int
    public var congestionPhase: String
    public var slowStartThreshold: Int?
    public var retransmittedChunks: Int
    public var fastRecoveries: Int
    public var retransmissionTimeouts: Int
    public var slowStartExitsOnDelay: Int
    public var malformedPacketsDropped: Int
    public var badVerificationTags: Int
    public var rejectedCookies: Int
    /// DATA chunks dropped because the receive buffer was full (the peer sent past a_rwnd).
    public var dataChunksBeyondWindow: Int
    public var fragmentsRefused: Int
    public var renegedFragments: Int
    public var renegedByPeer: Int
    /// The association came up from the INITs in the descriptions (SNAP).
    public var establishedWithoutHandshake: Bool
    public var oversizedControlChunksDropped: Int
}

/// W3C `RTCDataChannelStats`.
public struct DataChannelStats: Sendable, Encodable {
    static let type = "data-channel"
    public var id: String
    public var label: String
    public var `protocol`: String
    public var dataChannelIdentifier: Int
    public var state: String
    public var messagesSent: Int
    public var bytesSent: Int
    public var messagesReceived: Int
    public var bytesReceived: Int
}

public import TernCore

/// Everything a `DTLSEndpoint` needs before its first datagram.
public struct DTLSConfiguration: Sendable {
    /// Client (`a=setup:active`) or server (`a=setup:passive`).
    public var role: DTLSRole
    /// This endpoint's certificate and key.
    public var certificate: DTLSCertificate
    /// Every `a=fingerprint` of the remote SDP; the peer's certificate must match one (RFC 8122 §5).
    public var remoteFingerprints: [DTLSFingerprint]
    /// use_srtp profiles in preference order (RFC 5764 §4.1.1); empty disables use_srtp.
    public var srtpProfiles: [SRTPProtectionProfile]
    /// The largest datagram DTLS may emit, in bytes (UDP payload). WebRTC stacks use 1200.
    public var maximumDatagramSize: Int
    /// First retransmission timeout, doubled at each retransmission. 100 ms as RFC 9147 §5.8.2
    /// recommends for real-time protocols (RFC 6347 said 1 s): with a 1 s start, four flights lost
    /// in a row already cost 15 s (1 + 2 + 4 + 8), longer than a call waits to connect.
    public var initialRetransmissionTimeout: Duration
    /// Cap of the doubling retransmission timeout (RFC 6347 §4.2.4.1: at least 60 s).
    public var maximumRetransmissionTimeout: Duration
    /// The longest a handshake may take from its start (client: `start`; server: the first
    /// datagram) before the endpoint fails with `handshakeDeadlineExceeded`. OpenSSL's own give-up
    /// (12 timeouts) restarts with every flight the peer answers, so only this bounds a peer
    /// that keeps a handshake going.
    public var handshakeTimeout: Duration = .seconds(30)
    /// Tests only: retransmissions follow the caller's `now` (virtual time) on OpenSSL 3.0.x,
    /// by writing into OpenSSL's private timer state; see `DTLSTimer` for what that covers.
    public var retransmitsOnCallerClockForTesting = false

    /// A configuration; the defaults are WebRTC's (all four SRTP profiles, AEAD first, 1200-byte
    /// datagrams, 100 ms initial retransmission timeout doubling to 60 s).
    public init(
        role: DTLSRole,
        certificate: DTLSCertificate,
        remoteFingerprints: [DTLSFingerprint],
        srtpProfiles: [SRTPProtectionProfile] = SRTPProtectionProfile.defaultPreference,
        maximumDatagramSize: Int = 1200,
        initialRetransmissionTimeout: Duration = .milliseconds(100),
        maximumRetransmissionTimeout: Duration = .seconds(60)
    ) {
        self.role = role
        self.certificate = certificate
        self.remoteFingerprints = remoteFingerprints
        self.srtpProfiles = srtpProfiles
        self.maximumDatagramSize = maximumDatagramSize
        self.initialRetransmissionTimeout = initialRetransmissionTimeout
        self.maximumRetransmissionTimeout = maximumRetransmissionTimeout
    }

    /// The cipher suites offered, ECDSA and RSA certificates both (GStreamer presents RSA-2048).
    static let cipherList = [
        "ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-RSA-AES128-GCM-SHA256",
        "ECDHE-ECDSA-AES256-GCM-SHA384", "ECDHE-RSA-AES256-GCM-SHA384",
        "ECDHE-ECDSA-CHACHA20-POLY1305", "ECDHE-RSA-CHACHA20-POLY1305",
    ].joined(separator: ":")
}

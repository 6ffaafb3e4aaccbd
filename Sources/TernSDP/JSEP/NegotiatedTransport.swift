public import TernCore

/// The negotiated ICE and DTLS parameters of the (single, bundled) transport.
public struct NegotiatedTransport: Sendable, Equatable {
    /// Our ICE credentials.
    public var localCredentials: ICECredentials
    /// The remote ICE credentials.
    public var remoteCredentials: ICECredentials
    /// The remote certificate fingerprints DTLS must verify (RFC 8122 §5).
    public var remoteFingerprints: [Fingerprint]
    /// The remote `a=setup`.
    public var remoteSetup: SetupRole
    /// Our DTLS role.
    public var dtlsRole: DTLSRole
    /// Remote candidates from the description and trickled ones, de-duplicated, in arrival order.
    public var remoteCandidates: [ICECandidate]
    /// True when the remote side signalled end of candidates.
    public var remoteEndOfCandidates: Bool
    /// True when the remote side is ICE lite (RFC 8445 §2.5).
    public var remoteICELite: Bool
    /// The remote `a=ice-options` tokens.
    public var remoteICEOptions: [String]
}

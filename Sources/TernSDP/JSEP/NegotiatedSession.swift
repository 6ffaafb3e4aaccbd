/// The result of a completed offer/answer exchange: what the peer connection configures its
/// ICE, DTLS, SRTP, RTP and SCTP layers with.
public struct NegotiatedSession: Sendable, Equatable {
    /// Media sections in m= line order (RTP sections only).
    public var media: [NegotiatedMedia]
    /// The data channel section, if accepted.
    public var dataChannel: NegotiatedDataChannel?
    /// The bundled transport; nil when every section was rejected.
    public var transport: NegotiatedTransport?
    /// The mids in the BUNDLE group, tagged mid first (RFC 9143).
    public var bundleMids: [String]
}

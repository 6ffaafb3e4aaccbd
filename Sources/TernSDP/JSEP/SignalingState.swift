/// The JSEP signaling state (RFC 9429 §3.2; W3C `RTCSignalingState`). Raw values are the W3C strings.
public enum SignalingState: String, Sendable, CaseIterable {
    /// No offer/answer exchange in progress.
    case stable
    /// A local offer has been applied.
    case haveLocalOffer = "have-local-offer"
    /// A remote offer has been applied.
    case haveRemoteOffer = "have-remote-offer"
    /// A remote offer and a local provisional answer have been applied.
    case haveLocalPranswer = "have-local-pranswer"
    /// A local offer and a remote provisional answer have been applied.
    case haveRemotePranswer = "have-remote-pranswer"
    /// The session is closed.
    case closed
}

/// Media direction attributes (RFC 8866 §6.7; RFC 3264 §5.1). Raw values equal the W3C
/// `RTCRtpTransceiverDirection` strings.
public enum RTPDirection: String, Sendable, CaseIterable {
    /// Send and receive (the default when no attribute is present).
    case sendrecv
    /// Send only.
    case sendonly
    /// Receive only.
    case recvonly
    /// Neither.
    case inactive

    /// Creates a direction from its send and receive halves.
    public init(send: Bool, receive: Bool) {
        switch (send, receive) {
        case (true, true): self = .sendrecv
        case (true, false): self = .sendonly
        case (false, true): self = .recvonly
        case (false, false): self = .inactive
        }
    }

    /// True when this side sends.
    public var sends: Bool { self == .sendrecv || self == .sendonly }
    /// True when this side receives.
    public var receives: Bool { self == .sendrecv || self == .recvonly }

    /// The same direction seen from the other side (sendonly ⇄ recvonly).
    public var reversed: RTPDirection { RTPDirection(send: receives, receive: sends) }

    /// The answer direction for an offer with direction `offered`, given what the answerer wants
    /// (RFC 3264 §6.1: sendonly → recvonly/inactive, recvonly → sendonly/inactive, inactive → inactive).
    public static func answer(offered: RTPDirection, local wish: RTPDirection) -> RTPDirection {
        RTPDirection(send: wish.sends && offered.receives, receive: wish.receives && offered.sends)
    }
}

/// What a datagram on a WebRTC 5-tuple is, by its first byte (RFC 7983 §7) and, for
/// RTP/RTCP, its second byte (RFC 5761 §4).
///
/// ```
///              +----------------+
///              |        [0..3] -+--> STUN
///              |      [16..19] -+--> ZRTP
///  packet -->  |      [20..63] -+--> DTLS
///              |      [64..79] -+--> TURN channel
///              |    [128..191] -+--> RTP / RTCP (second byte 192..223 → RTCP)
///              +----------------+
/// ```
public enum DemultiplexedPacket: String, Sendable, Hashable {
    /// STUN (first byte 0–3): ICE connectivity checks and consent.
    case stun
    /// ZRTP (16–19).
    case zrtp
    /// DTLS records (20–63).
    case dtls
    /// TURN ChannelData (64–79).
    case turnChannel
    /// RTP (128–191, second byte outside 192–223).
    case rtp
    /// RTCP (128–191, second byte 192–223).
    case rtcp
    /// Anything else (RFC 7983 says drop it).
    case unknown

    /// Classifies a datagram; pure, never fails.
    public init(classifying datagram: some Collection<UInt8>) {
        guard let first = datagram.first else {
            self = .unknown
            return
        }
        switch first {
        case 0...3: self = .stun
        case 16...19: self = .zrtp
        case 20...63: self = .dtls
        case 64...79: self = .turnChannel
        case 128...191:
            let second = datagram.dropFirst().first
            guard let second else {
                self = .unknown
                return
            }
            // RFC 5761 §4: RTCP packet types 192–223 sit where RTP has marker + payload type.
            self = (192...223).contains(second) ? .rtcp : .rtp
        default: self = .unknown
        }
    }
}

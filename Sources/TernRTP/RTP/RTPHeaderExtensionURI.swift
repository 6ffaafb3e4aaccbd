/// A header-extension URI as negotiated in SDP `a=extmap` (RFC 8285 §5).
public struct RTPHeaderExtensionURI: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The URI text.
    public var rawValue: String
    /// The URI with this text.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The URI with this text.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// A human-readable description.
    public var description: String { rawValue }

    /// RFC 8843 §15: the media identification (MID) of a BUNDLE group.
    public static let mid = Self("urn:ietf:params:rtp-hdrext:sdes:mid")
    /// RFC 8852 §3.1: RTPStreamId (simulcast "rid").
    public static let rtpStreamID = Self("urn:ietf:params:rtp-hdrext:sdes:rtp-stream-id")
    /// RFC 8852 §3.2: RepairedRTPStreamId.
    public static let repairedRTPStreamID = Self("urn:ietf:params:rtp-hdrext:sdes:repaired-rtp-stream-id")
    /// RFC 6464: client-to-mixer audio level.
    public static let audioLevel = Self("urn:ietf:params:rtp-hdrext:ssrc-audio-level")
    /// Absolute send time (webrtc.org; 6.18 fixed-point seconds, 24 bits).
    public static let absSendTime = Self("http://www.webrtc.org/experiments/rtp-hdrext/abs-send-time")
    /// draft-holmer-rmcat-transport-wide-cc-extensions-01 §2: transport-wide sequence number.
    public static let transportWideCC = Self("http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01")
}

/// One negotiated RTP media section.
public struct NegotiatedMedia: Sendable, Equatable {
    /// The section's mid.
    public var mid: String
    /// Index of the m= line.
    public var mLineIndex: Int
    /// Audio or video.
    public var kind: MediaKind
    /// Direction from our side (sendonly means we send).
    public var direction: RTPDirection
    /// Negotiated codecs with the payload types to use, preferred first; empty when rejected.
    public var codecs: [RTPCodec]
    /// Negotiated RTP header extensions with their ids (RFC 8285).
    public var headerExtensions: [ExtensionMap]
    /// SSRCs the remote side announced (`a=ssrc`), in order of first appearance.
    public var remoteSSRCs: [UInt32]
    /// The remote side's RTX streams (RFC 4588 §8.3 `a=ssrc-group:FID primary rtx`): RTX SSRC → primary SSRC.
    public var remoteRTXSSRCs: [UInt32: UInt32] = [:]
    /// The remote `a=msid`, if any.
    public var remoteMsid: MediaStreamId?
    /// True when the section is rejected or stopped (port 0).
    public var isRejected: Bool
}

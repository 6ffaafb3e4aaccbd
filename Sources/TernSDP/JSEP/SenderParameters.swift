/// What a local sender puts in SDP so the remote side can identify its stream (RFC 8830 msid,
/// RFC 5576 ssrc/cname, RFC 4588 FID group for RTX).
public struct SenderParameters: Sendable, Equatable {
    /// Primary SSRC.
    public var ssrc: UInt32
    /// RTX SSRC, if RTX is negotiated.
    public var rtxSSRC: UInt32?
    /// RTCP CNAME.
    public var cname: String
    /// Media stream id for `a=msid` (`-` for none).
    public var streamId: String
    /// Track id for `a=msid`.
    public var trackId: String

    /// Creates sender parameters.
    public init(ssrc: UInt32, rtxSSRC: UInt32? = nil, cname: String, streamId: String, trackId: String) {
        self.ssrc = ssrc
        self.rtxSSRC = rtxSSRC
        self.cname = cname
        self.streamId = streamId
        self.trackId = trackId
    }
}

import TernDTLS
import TernMedia
import TernSCTP
public import TernSDP

/// What `TransportCore` reports to its driver after each input.
enum TransportEvent: Sendable {
    case dtlsStateChanged(DTLSTransportState)
    case dtlsConnected(DTLSConnectionInfo)
    case dtlsFailed(String)
    /// The SCTP association is up; channels created before now are being opened.
    case sctpConnected
    /// A channel reached `open`; `remote` when the peer opened it (W3C `datachannel`).
    case channelOpened(DataChannelInfo, remote: Bool)
    case channelMessage(id: UInt16, DataChannelMessage)
    case channelClosed(id: UInt16, reason: String?)
    case channelBufferedAmountLow(id: UInt16)
    /// The SCTP association ended (abort, shutdown or the peer vanished).
    case sctpClosed(reason: String)
    /// The first packet of a remote media stream arrived.
    case remoteStreamStarted(RemoteStreamInfo)
    /// One complete encoded audio frame from the remote side.
    case audioFrame(ssrc: UInt32, EncodedAudioFrame)
    /// `count` audio packets before the next `audioFrame` of `ssrc` were lost: conceal them.
    case audioLoss(ssrc: UInt32, count: Int)
    /// One complete encoded video frame from the remote side.
    case videoFrame(ssrc: UInt32, EncodedVideoFrame)
    /// The remote side asked for a keyframe on one of our video streams (PLI/FIR).
    case keyframeRequested(ssrc: UInt32)
}

/// A remote media stream the transport has bound to an SSRC.
public struct RemoteStreamInfo: Sendable, Hashable {
    /// The m-section's mid.
    public var mid: String
    /// Audio or video.
    public var kind: MediaKind
    /// The remote SSRC.
    public var ssrc: UInt32
    /// The codec's name (`opus`, `VP8`).
    public var codecName: String
    /// The codec's RTP clock rate.
    public var clockRate: Int
}

public import TernRTP

/// W3C `RTCCodecStats`.
public struct CodecStats: Sendable, Encodable {
    static let type = "codec"
    public var id: String
    public var payloadType: Int
    public var mimeType: String
    public var clockRate: Int
    public var transportId = "T"
}

/// W3C `RTCMediaSourceStats` of a local track.
public struct MediaSourceStats: Sendable, Encodable {
    static let type = "media-source"
    public var id: String
    public var kind: String
    public var trackIdentifier: String
}

/// W3C `RTCOutboundRtpStreamStats`: the RTP layer's counters (`counters`, TernRTP's
/// `OutboundRTPStreamStats`) and what the peer connection knows of the stream; encoded flat.
public struct OutboundRTPEntry: Sendable, Encodable {
    static let type = "outbound-rtp"
    public var id: String
    public var counters: OutboundRTPStreamStats
    public var kind: String
    public var mid: String
    public var transportId = "T"
    public var codecId: String
    public var mediaSourceId: String
    public var remoteId: String
    /// Not W3C: the SSRC retransmissions go out on, when RTX is negotiated.
    public var rtxSsrc: UInt32?
    /// Not W3C: NACKed packets not resent because the retransmission budget was spent.
    public var nackRequestsRateLimited: UInt64
    /// The rate the encoder is set to, bit/s (its share of the bandwidth estimate; absent for
    /// frames the application encodes itself).
    public var targetBitrate: Double?
    /// Video through Tern's encoder: frames encoded in the last second, the size sent, and what
    /// limits the quality (`none` or `bandwidth`) with the seconds spent in each reason.
    public var framesPerSecond: Double?
    public var frameWidth: Int?
    public var frameHeight: Int?
    public var qualityLimitationReason: String?
    public var qualityLimitationDurations: [String: Double]?
    /// Video frames handed to the transport (W3C `framesSent`): what a receiver's decoded
    /// count is compared with.
    public var framesSent: Int?

    private enum Keys: String, CodingKey {
        case id, kind, mid, transportId, codecId, mediaSourceId, remoteId, rtxSsrc, nackRequestsRateLimited, targetBitrate
        case framesPerSecond, frameWidth, frameHeight, qualityLimitationReason, qualityLimitationDurations, framesSent
    }

    public func encode(to encoder: any Encoder) throws {
        try counters.encode(to: encoder)
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(id, forKey: .id)
        try c.encode(kind, forKey: .kind)
        try c.encode(mid, forKey: .mid)
        try c.encode(transportId, forKey: .transportId)
        try c.encode(codecId, forKey: .codecId)
        try c.encode(mediaSourceId, forKey: .mediaSourceId)
        try c.encode(remoteId, forKey: .remoteId)
        try c.encodeIfPresent(rtxSsrc, forKey: .rtxSsrc)
        try c.encode(nackRequestsRateLimited, forKey: .nackRequestsRateLimited)
        try c.encodeIfPresent(targetBitrate, forKey: .targetBitrate)
        try c.encodeIfPresent(framesPerSecond, forKey: .framesPerSecond)
        try c.encodeIfPresent(frameWidth, forKey: .frameWidth)
        try c.encodeIfPresent(frameHeight, forKey: .frameHeight)
        try c.encodeIfPresent(qualityLimitationReason, forKey: .qualityLimitationReason)
        try c.encodeIfPresent(qualityLimitationDurations, forKey: .qualityLimitationDurations)
        try c.encodeIfPresent(framesSent, forKey: .framesSent)
    }
}

/// W3C `RTCRemoteInboundRtpStreamStats`: what the peer's receiver reports say of one of our
/// streams (TernRTP's `RemoteInboundRTPStreamStats`), encoded flat.
public struct RemoteInboundRTPEntry: Sendable, Encodable {
    static let type = "remote-inbound-rtp"
    public var id: String
    public var counters: RemoteInboundRTPStreamStats
    public var kind: String
    public var transportId = "T"
    public var localId: String

    private enum Keys: String, CodingKey { case id, kind, transportId, localId }

    public func encode(to encoder: any Encoder) throws {
        try counters.encode(to: encoder)
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(id, forKey: .id)
        try c.encode(kind, forKey: .kind)
        try c.encode(transportId, forKey: .transportId)
        try c.encode(localId, forKey: .localId)
    }
}

/// W3C `RTCInboundRtpStreamStats`: the RTP layer's counters (TernRTP's
/// `InboundRTPStreamStats`) with retransmission, frame and feedback figures; encoded flat.
public struct InboundRTPEntry: Sendable, Encodable {
    static let type = "inbound-rtp"
    public var id: String
    public var counters: InboundRTPStreamStats
    public var kind: String
    public var mid: String
    public var transportId = "T"
    public var codecId: String
    public var nackCount: UInt64
    public var pliCount: UInt64
    /// Video only: Full Intra Requests sent (where the sender negotiated `ccm fir`).
    public var firCount: UInt64?
    public var framesReceived: Int?
    public var framesDecoded: Int?
    public var frameWidth: Int?
    public var frameHeight: Int?
    /// Video only: frames decoded in the last second, and freezes as W3C defines them.
    public var framesPerSecond: Double?
    public var freezeCount: Int?
    public var totalFreezesDuration: Double?
    /// Video only.
    public var framesDropped: UInt64?
    public var retransmittedPacketsReceived: UInt64?
    public var retransmittedBytesReceived: UInt64?

    private enum Keys: String, CodingKey {
        case id, kind, mid, transportId, codecId, nackCount, pliCount, firCount, framesReceived, framesDecoded, frameWidth, frameHeight
        case framesDropped, retransmittedPacketsReceived, retransmittedBytesReceived
        case framesPerSecond, freezeCount, totalFreezesDuration
    }

    public func encode(to encoder: any Encoder) throws {
        try counters.encode(to: encoder)
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(id, forKey: .id)
        try c.encode(kind, forKey: .kind)
        try c.encode(mid, forKey: .mid)
        try c.encode(transportId, forKey: .transportId)
        try c.encode(codecId, forKey: .codecId)
        try c.encode(nackCount, forKey: .nackCount)
        try c.encode(pliCount, forKey: .pliCount)
        try c.encodeIfPresent(firCount, forKey: .firCount)
        try c.encodeIfPresent(framesReceived, forKey: .framesReceived)
        try c.encodeIfPresent(framesDecoded, forKey: .framesDecoded)
        try c.encodeIfPresent(frameWidth, forKey: .frameWidth)
        try c.encodeIfPresent(frameHeight, forKey: .frameHeight)
        try c.encodeIfPresent(framesPerSecond, forKey: .framesPerSecond)
        try c.encodeIfPresent(freezeCount, forKey: .freezeCount)
        try c.encodeIfPresent(totalFreezesDuration, forKey: .totalFreezesDuration)
        try c.encodeIfPresent(framesDropped, forKey: .framesDropped)
        try c.encodeIfPresent(retransmittedPacketsReceived, forKey: .retransmittedPacketsReceived)
        try c.encodeIfPresent(retransmittedBytesReceived, forKey: .retransmittedBytesReceived)
    }
}

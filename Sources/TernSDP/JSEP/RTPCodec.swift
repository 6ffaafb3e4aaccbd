/// An RTP codec as negotiated in SDP: `a=rtpmap` + `a=fmtp` + `a=rtcp-fb` for one payload type.
public struct RTPCodec: Sendable, Equatable {
    /// Payload type (dynamic 96–127 for the codecs we offer).
    public var payloadType: UInt8
    /// Encoding name (`opus`, `VP8`, `rtx`); matched case-insensitively.
    public var name: String
    /// Clock rate in Hz.
    public var clockRate: Int
    /// Channel count (audio); nil means 1.
    public var channels: Int?
    /// Format parameters text for `a=fmtp` ("" when none).
    public var parameters: String
    /// RTCP feedback types for `a=rtcp-fb` (`nack`, `nack pli`, `ccm fir`, `goog-remb`, `transport-cc`).
    public var feedback: [String]

    /// Creates a codec.
    public init(payloadType: UInt8, name: String, clockRate: Int, channels: Int? = nil,
                parameters: String = "", feedback: [String] = []) {
        self.payloadType = payloadType
        self.name = name
        self.clockRate = clockRate
        self.channels = channels
        self.parameters = parameters
        self.feedback = feedback
    }

    /// Opus 48000/2 with in-band FEC (RFC 7587 §7).
    public static func opus(payloadType: UInt8 = 111) -> RTPCodec {
        RTPCodec(payloadType: payloadType, name: "opus", clockRate: 48000, channels: 2,
                 parameters: "minptime=10;useinbandfec=1", feedback: ["transport-cc"])
    }

    /// VP8 90000 (RFC 7741) with NACK, PLI, FIR, REMB and transport-wide CC feedback.
    public static func vp8(payloadType: UInt8 = 96) -> RTPCodec {
        RTPCodec(payloadType: payloadType, name: "VP8", clockRate: 90000,
                 feedback: ["goog-remb", "transport-cc", "ccm fir", "nack", "nack pli"])
    }

    /// RTX retransmission (RFC 4588 §8.6) for the codec with payload type `apt`.
    public static func rtx(payloadType: UInt8 = 97, apt: UInt8) -> RTPCodec {
        RTPCodec(payloadType: payloadType, name: "rtx", clockRate: 90000, parameters: "apt=\(apt)")
    }

    /// True for RTX (RFC 4588).
    public var isRTX: Bool { name.lowercased() == "rtx" }

    /// The `apt=` associated payload type of an RTX codec.
    public var associatedPayloadType: UInt8? {
        FormatParameters(payloadType: payloadType, text: parameters).parameters["apt"]
            .flatMap { Tokens.number($0, as: UInt8.self) }
    }

    /// True when `other` is the same codec: same name (case-insensitive), clock rate and channel count
    /// (RFC 3264 §6.1; a missing channel count means 1). Payload types may differ.
    /// Opus is always `opus/48000/2` (RFC 7587 §7), but GStreamer writes `OPUS/48000`: channels are ignored for it.
    public func matches(_ other: RTPCodec) -> Bool {
        let lowered = name.lowercased()
        guard lowered == other.name.lowercased(), clockRate == other.clockRate else { return false }
        return lowered == "opus" || (channels ?? 1) == (other.channels ?? 1)
    }

    /// Static payload types (RFC 3551 §6) used when an offer lists one without `a=rtpmap`.
    static func staticCodec(_ pt: UInt8) -> RTPCodec? {
        switch pt {
        case 0: RTPCodec(payloadType: 0, name: "PCMU", clockRate: 8000)
        case 8: RTPCodec(payloadType: 8, name: "PCMA", clockRate: 8000)
        case 9: RTPCodec(payloadType: 9, name: "G722", clockRate: 8000)
        case 13: RTPCodec(payloadType: 13, name: "CN", clockRate: 8000)
        default: nil
        }
    }

    /// The codecs a media section lists, in `m=` order, from its rtpmap/fmtp/rtcp-fb lines.
    public static func codecs(in media: MediaDescription) -> [RTPCodec] {
        var maps: [UInt8: RTPMap] = [:]
        var fmtp: [UInt8: String] = [:]
        var fb: [UInt8: [String]] = [:]
        var fbAll: [String] = []
        for line in media.lines {
            guard case .attribute(let a) = line else { continue }
            switch a.name {
            case RTPMap.attributeName: if let m = a.parsed(as: RTPMap.self), maps[m.payloadType] == nil { maps[m.payloadType] = m }
            case FormatParameters.attributeName: if let f = a.parsed(as: FormatParameters.self) { fmtp[f.payloadType] = f.text }
            case RTCPFeedback.attributeName:
                if let f = a.parsed(as: RTCPFeedback.self) {
                    if let pt = f.payloadType { fb[pt, default: []].append(f.feedback) } else { fbAll.append(f.feedback) }
                }
            default: break
            }
        }
        var seen = Set<UInt8>()
        return media.mediaLine.payloadTypes.compactMap { pt in
            guard seen.insert(pt).inserted else { return nil }
            var codec: RTPCodec
            if let map = maps[pt] {
                codec = RTPCodec(payloadType: pt, name: map.encodingName, clockRate: map.clockRate, channels: map.channels)
            } else if let known = staticCodec(pt) {
                codec = known
            } else {
                return nil
            }
            codec.parameters = fmtp[pt] ?? ""
            codec.feedback = fbAll + (fb[pt] ?? [])
            return codec
        }
    }
}

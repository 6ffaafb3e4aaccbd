/// Maps Opus packets to RTP payloads and back (RFC 7587 §4).
///
/// One Opus packet per RTP payload, unmodified (§4.2); the RTP timestamp counts
/// 48 kHz samples whatever the coded bandwidth (§4.1). With DTX, 1–2 byte
/// packets are silence and need not be sent (§3.1.3, §4.1); the first packet sent
/// after such a pause sets the marker bit, as the first packet of a talkspurt
/// (RFC 3551 §4.1), and so does the first packet of the stream.
public struct OpusPayloader: Sendable {
    /// Whether DTX silence packets are suppressed instead of sent.
    public let suppressDTXPackets: Bool
    private var talkspurtStarts = true

    /// A payloader. With `suppressDTXPackets`, frames of ≤ 2 bytes produce no payload.
    public init(suppressDTXPackets: Bool = true) {
        self.suppressDTXPackets = suppressDTXPackets
    }

    /// The payload for one encoded frame, or nil when DTX silence is suppressed.
    public mutating func payload(for frame: EncodedAudioFrame) -> RTPPayloadUnit? {
        if suppressDTXPackets, frame.isDiscontinuousTransmissionFrame {
            talkspurtStarts = true
            return nil
        }
        let marker = talkspurtStarts
        talkspurtStarts = false
        return RTPPayloadUnit(payload: frame.data, marker: marker, timestamp: frame.timestamp)
    }

    /// The encoded frame carried by a received payload (RFC 7587 §4.2). Throws
    /// for an empty payload, which cannot hold an Opus packet (RFC 6716 §3.1).
    /// `sampleCount` is read from the packet's TOC byte (RFC 6716 §3.1); it is 0
    /// when the packet is malformed, which the decoder will then report.
    public static func frame(from unit: RTPPayloadUnit) throws(OpusError) -> EncodedAudioFrame {
        guard !unit.payload.isEmpty else { throw .emptyPacket }
        return EncodedAudioFrame(timestamp: unit.timestamp, data: unit.payload,
                                 sampleCount: OpusPacketInfo.samplesPerChannel(unit.payload) ?? 0)
    }
}

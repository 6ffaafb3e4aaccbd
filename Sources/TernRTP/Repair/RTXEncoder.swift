/// RTP retransmission payload format (RFC 4588 §4): the retransmission travels
/// on its own SSRC and payload type with its own sequence numbers; the first two
/// payload bytes carry the original sequence number (OSN).
///
///   0                   1                   2                   3
///   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
///  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///  |                         RTP Header                            |
///  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///  |            OSN                |                               |
///  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+                               |
///  |                  Original RTP Packet Payload                  |
public struct RTXEncoder: Sendable {
    /// The RTX stream's SSRC (`a=ssrc-group:FID`).
    public let ssrc: UInt32
    /// The RTX payload type (`a=fmtp:<rtx> apt=<original>`).
    public let payloadType: UInt8
    /// The next RTX sequence number.
    public private(set) var nextSequenceNumber: UInt16
    /// Bytes an RTX payload adds before the original payload: the OSN.
    public static let osnSize = 2

    /// An encoder for the RTX stream `ssrc`/`payloadType`, starting at `initialSequenceNumber` (random, RFC 3550 §5.1).
    public init(ssrc: UInt32, payloadType: UInt8, initialSequenceNumber: UInt16) {
        self.ssrc = ssrc
        self.payloadType = payloadType
        self.nextSequenceNumber = initialSequenceNumber
    }

    /// The RTX packet carrying `original`: same timestamp, marker, CSRCs and
    /// header extensions; payload = OSN + original payload (RFC 4588 §4).
    public mutating func wrap(_ original: RTPPacket) -> RTPPacket {
        var payload: [UInt8] = []
        payload.reserveCapacity(original.payload.count + Self.osnSize)
        appendBigEndian(original.sequenceNumber, to: &payload)
        payload.append(contentsOf: original.payload)
        let packet = RTPPacket(marker: original.marker, payloadType: payloadType, sequenceNumber: nextSequenceNumber,
                               timestamp: original.timestamp, ssrc: ssrc, csrcs: original.csrcs,
                               headerExtension: original.headerExtension, payload: payload[...])
        nextSequenceNumber &+= 1
        return packet
    }

    /// A padding-only packet on the RTX stream (RFC 4588 allows them; libwebrtc probes the path
    /// with them): no payload, `paddingSize` bytes of RTP padding (1…255, RFC 3550 §5.1), the
    /// media stream's current `timestamp` and `headerExtension`. A receiver counts and drops it.
    public mutating func padding(size paddingSize: Int, timestamp: UInt32, headerExtension: RTPHeaderExtension?) -> RTPPacket {
        let packet = RTPPacket(payloadType: payloadType, sequenceNumber: nextSequenceNumber, timestamp: timestamp, ssrc: ssrc,
                               headerExtension: headerExtension, paddingSize: UInt8(clamping: min(max(paddingSize, 1), 255)))
        nextSequenceNumber &+= 1
        return packet
    }
}

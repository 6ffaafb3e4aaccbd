/// Recovers original packets from RTX packets (RFC 4588 §4), without copying the payload.
public enum RTXDecoder {
    /// The original packet inside `rtx`, given the original stream's SSRC and the
    /// payload type the RTX payload type is associated with (`apt`).
    /// - Throws: `RTPParseError.payloadTooShort` when the payload has no OSN.
    public static func unwrap(_ rtx: RTPPacket, originalSSRC: UInt32, originalPayloadType: UInt8) throws(RTPParseError) -> RTPPacket {
        guard rtx.payload.count >= 2 else { throw .payloadTooShort(needed: 2, available: rtx.payload.count) }
        let i = rtx.payload.startIndex
        let osn = UInt16(rtx.payload[i]) << 8 | UInt16(rtx.payload[i + 1])
        return RTPPacket(marker: rtx.marker, payloadType: originalPayloadType, sequenceNumber: osn, timestamp: rtx.timestamp,
                         ssrc: originalSSRC, csrcs: rtx.csrcs, headerExtension: rtx.headerExtension,
                         payload: rtx.payload.dropFirst(2))
    }
}

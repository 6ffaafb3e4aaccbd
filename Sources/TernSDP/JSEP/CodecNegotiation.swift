/// The codec intersection rules an answerer applies (RFC 3264 §6.1, RFC 9429 §5.3.1).
public enum CodecNegotiation {
    /// The codecs to put in an answer.
    ///
    /// - A codec is kept when a local codec has the same name (case-insensitive), clock rate and channels.
    /// - The offerer's payload type numbers are used; the local codec's fmtp parameters are written.
    /// - RTCP feedback is the intersection of offered and supported types.
    /// - RTX (RFC 4588) is kept when supported locally and its `apt` points at a kept codec.
    /// - Order: the offerer's, or local preference order when `preferLocalOrder` (codec preferences set).
    public static func answerCodecs(offered: [RTPCodec], local: [RTPCodec], preferLocalOrder: Bool = false) -> [RTPCodec] {
        let localPrimaries = local.filter { !$0.isRTX }
        var kept: [RTPCodec] = []
        func accept(_ offer: RTPCodec, _ mine: RTPCodec) {
            guard !kept.contains(where: { $0.payloadType == offer.payloadType }) else { return }
            var codec = offer
            codec.parameters = mine.parameters
            codec.feedback = offer.feedback.filter { fb in mine.feedback.contains { $0.lowercased() == fb.lowercased() } }
            kept.append(codec)
        }
        if preferLocalOrder {
            for mine in localPrimaries {
                for offer in offered where !offer.isRTX && offer.matches(mine) { accept(offer, mine) }
            }
        } else {
            for offer in offered where !offer.isRTX {
                if let mine = localPrimaries.first(where: { offer.matches($0) }) { accept(offer, mine) }
            }
        }
        guard local.contains(where: \.isRTX) else { return kept }
        var result: [RTPCodec] = []
        for codec in kept {
            result.append(codec)
            if let rtx = offered.first(where: { $0.isRTX && $0.associatedPayloadType == codec.payloadType }) {
                var answer = rtx
                answer.parameters = "apt=\(codec.payloadType)"
                answer.feedback = []
                result.append(answer)
            }
        }
        return result
    }

    /// The codecs in effect after the exchange, read from the answer and limited to what the offer listed.
    static func negotiated(offer: MediaDescription, answer: MediaDescription) -> [RTPCodec] {
        let offered = Set(offer.mediaLine.payloadTypes)
        return RTPCodec.codecs(in: answer).filter { offered.contains($0.payloadType) }
    }
}

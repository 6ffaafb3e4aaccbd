import TernCore
extension JSEPSession {
    /// The result of the last completed exchange; nil before the first answer is applied.
    public var negotiated: NegotiatedSession? {
        guard let local = currentLocalDescription, let remote = currentRemoteDescription else { return nil }
        let offer = currentLocalIsOffer ? local : remote
        let answer = currentLocalIsOffer ? remote : local
        var media: [NegotiatedMedia] = []
        var data: NegotiatedDataChannel?
        for (index, slot) in slots.enumerated() where index < answer.media.count && index < offer.media.count {
            let answered = answer.media[index]
            let remoteSection = remote.media[index]
            let rejected = answered.isRejected
            switch slot.content {
            case .transceiver:
                guard let kind = MediaKind(rawValue: answered.kind) else { continue }
                let direction = answered.direction ?? .sendrecv
                var ssrcs: [UInt32] = []
                for attribute in remoteSection.ssrcAttributes where !ssrcs.contains(attribute.ssrc) { ssrcs.append(attribute.ssrc) }
                media.append(NegotiatedMedia(
                    mid: slot.mid, mLineIndex: index, kind: kind,
                    direction: rejected ? .inactive : (currentLocalIsOffer ? direction.reversed : direction),
                    codecs: rejected ? [] : CodecNegotiation.negotiated(offer: offer.media[index], answer: answered),
                    headerExtensions: rejected ? [] : answered.extensionMaps,
                    remoteSSRCs: ssrcs, remoteRTXSSRCs: Self.rtxPairs(remoteSection),
                    remoteMsid: remoteSection.msids.first, isRejected: rejected))
            case .data where !rejected:
                data = NegotiatedDataChannel(mid: slot.mid, mLineIndex: index, localSCTPPort: local.media[index].sctpPort ?? 5000,
                                             remoteSCTPPort: remoteSection.sctpPort ?? 5000,
                                             remoteMaxMessageSize: remoteSection.maxMessageSize ?? 65536,
                                             remoteMaxPacket: remoteSection.sctpMaxPacket,
                                             remoteSCTPInit: local.media[index].sctpInit == nil ? nil : remoteSection.sctpInit)
            default:
                break
            }
        }
        let bundle = answer.bundleGroups.first?.mids ?? []
        return NegotiatedSession(media: media, dataChannel: data, transport: transport(remote: remote, answer: answer),
                                 bundleMids: bundle)
    }

    /// RTX SSRC → primary SSRC from `a=ssrc-group:FID primary rtx` (RFC 4588 §8.3, RFC 5576 §4.2).
    static func rtxPairs(_ section: MediaDescription) -> [UInt32: UInt32] {
        var pairs: [UInt32: UInt32] = [:]
        for group in section.ssrcGroups where group.semantics.uppercased() == "FID" && group.ssrcs.count == 2 {
            pairs[group.ssrcs[1]] = group.ssrcs[0]
        }
        return pairs
    }

    private func transport(remote: SessionDescription, answer: SessionDescription) -> NegotiatedTransport? {
        let accepted = answer.media.indices.filter { !answer.media[$0].isRejected }
        guard let first = accepted.first, let dtlsRole else { return nil }
        let attributes = TransportAttributes.resolve(in: remote, index: first)
        guard let ufrag = attributes.ufrag, let pwd = attributes.pwd, let setup = attributes.setup else { return nil }
        var candidates: [ICECandidate] = []
        var end = false
        for index in accepted where index < remote.media.count {
            for candidate in remote.media[index].candidates where !candidates.contains(candidate) { candidates.append(candidate) }
            end = end || remote.media[index].endOfCandidates
        }
        return NegotiatedTransport(localCredentials: localCredentials, remoteCredentials: ICECredentials(ufrag: ufrag, pwd: pwd),
                                   remoteFingerprints: attributes.fingerprints, remoteSetup: setup, dtlsRole: dtlsRole,
                                   remoteCandidates: candidates, remoteEndOfCandidates: end, remoteICELite: remote.isICELite,
                                   remoteICEOptions: attributes.iceOptions)
    }
}

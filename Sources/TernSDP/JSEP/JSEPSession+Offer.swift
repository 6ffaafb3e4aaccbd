import TernCore
extension JSEPSession {
    /// Creates an offer (RFC 9429 §5.2) from the transceivers and data channel wish. The layout of existing
    /// m= sections is kept; new transceivers and the data channel are appended with fresh mids.
    /// With `iceRestart` (or after `restartICE()`) the offer carries new ICE credentials (§5.2.1 / §4.1.1).
    public mutating func createOffer(iceRestart: Bool = false) throws(JSEPError) -> JSEPDescription {
        guard signalingState == .stable || signalingState == .haveLocalOffer else {
            throw JSEPError(.invalidState, "cannot create an offer in state \(signalingState.rawValue)")
        }
        guard !configuration.fingerprints.isEmpty else {
            throw JSEPError(.operation, "no DTLS fingerprint configured")
        }
        var credentials = localCredentials
        if iceRestart || iceRestartRequested {
            credentials = lastOffer.map(\.credentials).flatMap { $0 != localCredentials ? $0 : nil }
                ?? ICECredentials.random(using: &random)
        }

        var layout = slots
        var usedMids = Set(layout.map(\.mid))
        var nextMid = 0
        func freshMid() -> String {
            while usedMids.contains(String(nextMid)) { nextMid += 1 }
            usedMids.insert(String(nextMid))
            return String(nextMid)
        }
        for (index, transceiver) in transceivers.enumerated() where transceiver.mid == nil && !transceiver.isStopped {
            layout.append(Slot(mid: freshMid(), content: .transceiver(index)))
        }
        if wantsDataChannel, !layout.contains(where: { $0.content == .data }) {
            layout.append(Slot(mid: freshMid(), content: .data))
        }

        let active = layout.filter { !isStopped($0) }.map(\.mid)
        let writer = MediaSectionWriter(credentials: credentials, configuration: configuration, setup: .actpass,
                                        candidates: credentials == localCredentials ? localCandidates : [],
                                        endOfCandidates: credentials == localCredentials && localGatheringComplete)
        var description = MediaSectionWriter.session(id: sessionId, version: sessionVersion, bundle: active,
                                                     extmapAllowMixed: false)
        let previous = localDescription
        for (index, slot) in layout.enumerated() {
            let withCandidates = slot.mid == active.first
            switch slot.content {
            case .transceiver(let t):
                let transceiver = transceivers[t]
                if isStopped(slot) {
                    let codecs = offerCodecs(for: transceiver)
                    let line = MediaLine(media: transceiver.kind.rawValue, port: 0, proto: "UDP/TLS/RTP/SAVPF",
                                         formats: codecs.prefix(1).map { String($0.payloadType) })
                    description.media.append(MediaSectionWriter.rejectedSection(line, mid: slot.mid))
                    continue
                }
                let previousExtensions = previous.flatMap { index < $0.media.count ? $0.media[index].extensionMaps : nil }
                let extensions = previousExtensions?.isEmpty == false ? previousExtensions ?? [] :
                    configuration.headerExtensions.enumerated().map { ExtensionMap(id: $0.offset + 1, uri: $0.element) }
                description.media.append(writer.rtpSection(
                    kind: transceiver.kind, mid: slot.mid, direction: transceiver.direction,
                    codecs: offerCodecs(for: transceiver), extensions: extensions, sender: transceiver.sender,
                    rtcpReducedSize: true, rtcpMuxOnly: true, withCandidates: withCandidates))
            case .data:
                description.media.append(writer.dataSection(mid: slot.mid, withCandidates: withCandidates))
            case .unsupported(let line):
                description.media.append(MediaSectionWriter.rejectedSection(line, mid: slot.mid))
            }
        }
        sessionVersion += 1
        let sdp = description.text
        lastOffer = (sdp, layout, credentials)
        return JSEPDescription(type: .offer, sdp: sdp)
    }

    /// The codecs a transceiver offers: the negotiated set (same payload types, RFC 9429 §5.2.2), else its
    /// preferences, else the configuration's.
    func offerCodecs(for transceiver: Transceiver) -> [RTPCodec] {
        if !transceiver.negotiatedCodecs.isEmpty { return transceiver.negotiatedCodecs }
        if !transceiver.codecPreferences.isEmpty { return transceiver.codecPreferences }
        return configuration.codecs(for: transceiver.kind)
    }

    /// True when the slot is written with port 0.
    func isStopped(_ slot: Slot) -> Bool {
        switch slot.content {
        case .transceiver(let t): transceivers[t].isStopped || transceivers[t].isStopping
        case .data: false
        case .unsupported: true
        }
    }
}

import TernCore
extension JSEPSession {
    /// Creates an answer to the pending remote offer (RFC 9429 §5.3).
    ///
    /// Each offered section is accepted or rejected (port 0) on its own: unsupported protocol or media,
    /// no common codec, no `a=rtcp-mux`, port 0 in the offer, or outside the offer's BUNDLE group
    /// (max-bundle; without a group only the first usable section is accepted).
    public mutating func createAnswer() throws(JSEPError) -> JSEPDescription {
        guard signalingState == .haveRemoteOffer || signalingState == .haveLocalPranswer,
              let offer = pendingRemoteDescription else {
            throw JSEPError(.invalidState, "cannot create an answer in state \(signalingState.rawValue)")
        }
        guard !configuration.fingerprints.isEmpty else { throw JSEPError(.operation, "no DTLS fingerprint configured") }

        var credentials = localCredentials
        if remoteRestartsICE(offer) {
            credentials = lastAnswer.map(\.credentials).flatMap { $0 != localCredentials ? $0 : nil }
                ?? ICECredentials.random(using: &random)
        }
        let setup: SetupRole = switch remoteSetup(offer) {
        case .active: .passive
        case .passive: .active
        default: dtlsRole.map(\.setup) ?? configuration.answerSetup
        }
        let writer = MediaSectionWriter(credentials: credentials, configuration: configuration, setup: setup,
                                        candidates: credentials == localCredentials ? localCandidates : [],
                                        endOfCandidates: credentials == localCredentials && localGatheringComplete)
        let offeredBundle = offer.bundleGroups.first?.mids
        var accepted: [String] = []
        var sections: [MediaDescription] = []
        for (index, remote) in offer.media.enumerated() {
            let mid = remote.mid ?? slots[index].mid
            let inBundle = offeredBundle.map { $0.contains(mid) } ?? accepted.isEmpty
            let rejected = (remote.isRejected && !(remote.isBundleOnly && offeredBundle != nil)) || !inBundle
            let withCandidates = accepted.isEmpty
            var answered: MediaDescription?
            if !rejected {
                switch slots[index].content {
                case .transceiver(let t):
                    answered = answerSection(remote, offer: offer, transceiver: t, mid: mid, writer: writer,
                                             withCandidates: withCandidates)
                case .data where configuration.acceptsDataChannels && remote.isDataChannel:
                    answered = writer.dataSection(proto: remote.mediaLine.proto, mid: mid, withCandidates: withCandidates,
                                                  withSCTPInit: remote.sctpInit != nil)
                default:
                    answered = nil
                }
            }
            if let answered {
                sections.append(answered)
                accepted.append(mid)
            } else {
                sections.append(MediaSectionWriter.rejectedSection(remote.mediaLine, mid: remote.mid))
            }
        }
        let bundle = offeredBundle == nil ? [] : (offeredBundle ?? []).filter { accepted.contains($0) }
        var description = MediaSectionWriter.session(id: sessionId, version: sessionVersion, bundle: bundle,
                                                     extmapAllowMixed: offer.extmapAllowMixed)
        description.media = sections
        sessionVersion += 1
        let sdp = description.text
        lastAnswer = (sdp, credentials)
        return JSEPDescription(type: .answer, sdp: sdp)
    }

    /// The answer for one offered RTP section, or nil when it must be rejected.
    private func answerSection(_ remote: MediaDescription, offer: SessionDescription, transceiver index: Int, mid: String,
                               writer: MediaSectionWriter, withCandidates: Bool) -> MediaDescription? {
        let transceiver = transceivers[index]
        guard !transceiver.isStopped, !transceiver.isStopping, remote.isSupportedRTP,
              MediaKind(rawValue: remote.kind) == transceiver.kind else { return nil }
        // rtcp-mux is required (RFC 9429 §4.1.1 rtcpMuxPolicy "require"); a bundled section may rely on the tagged one.
        guard remote.rtcpMux || remote.isBundleOnly || (bundleTagged(offer, mid)?.rtcpMux ?? false) else { return nil }
        let local = transceiver.codecPreferences.isEmpty ? configuration.codecs(for: transceiver.kind) : transceiver.codecPreferences
        let codecs = CodecNegotiation.answerCodecs(offered: RTPCodec.codecs(in: remote), local: local,
                                                   preferLocalOrder: !transceiver.codecPreferences.isEmpty)
        guard codecs.contains(where: { !$0.isRTX }) else { return nil }
        let direction = RTPDirection.answer(offered: remote.direction ?? .sendrecv, local: transceiver.direction)
        let extensions = remote.extensionMaps
            .filter { configuration.headerExtensions.contains($0.uri) }
            .map { ExtensionMap(id: $0.id, uri: $0.uri) }
        return writer.rtpSection(kind: transceiver.kind, proto: remote.mediaLine.proto, mid: mid, direction: direction,
                                 codecs: codecs, extensions: extensions, sender: transceiver.sender,
                                 rtcpReducedSize: remote.rtcpReducedSize, rtcpMuxOnly: false, withCandidates: withCandidates)
    }

    /// True when `offer` carries ICE credentials different from the current remote ones (RFC 8839 §4.4.1.1.1).
    func remoteRestartsICE(_ offer: SessionDescription) -> Bool {
        guard let current = currentRemoteDescription, let index = firstActiveIndex(current),
              let newIndex = firstActiveIndex(offer) else { return false }
        let old = TransportAttributes.resolve(in: current, index: index)
        let new = TransportAttributes.resolve(in: offer, index: newIndex)
        return old.ufrag != new.ufrag || old.pwd != new.pwd
    }

    /// The remote setup of the first active section.
    func remoteSetup(_ description: SessionDescription) -> SetupRole? {
        firstActiveIndex(description).flatMap { TransportAttributes.resolve(in: description, index: $0).setup }
    }

    /// The section carrying the bundled transport (see `SessionDescription.transportMediaIndex`).
    func firstActiveIndex(_ description: SessionDescription) -> Int? {
        description.transportMediaIndex
    }

    /// The BUNDLE-tagged section of the group containing `mid`.
    func bundleTagged(_ description: SessionDescription, _ mid: String) -> MediaDescription? {
        guard let group = description.bundleGroups.first(where: { $0.mids.contains(mid) }), let tagged = group.mids.first
        else { return nil }
        return description.media(mid: tagged)
    }
}

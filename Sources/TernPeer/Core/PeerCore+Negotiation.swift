import TernCore
import TernICE
package import TernSDP

/// Offer/answer (RFC 9429) and what follows from it: the ICE agent, remote candidates, the transport.
extension PeerCore {
    /// W3C `createOffer`.
    package mutating func createOffer(iceRestart: Bool) throws(PeerConnectionError) -> JSEPDescription {
        do throws(JSEPError) { return try jsep.createOffer(iceRestart: iceRestart) } catch { throw .negotiation(error) }
    }

    /// W3C `createAnswer`.
    package mutating func createAnswer() throws(PeerConnectionError) -> JSEPDescription {
        do throws(JSEPError) { return try jsep.createAnswer() } catch { throw .negotiation(error) }
    }

    /// W3C `setLocalDescription`: applies it, starts ICE gathering (or restarts ICE), reports
    /// held candidates, and when the exchange completes, builds or reconfigures the transport.
    /// When it returns `.gather`, the rest waits for `agentGathered(_:complete:)`.
    package mutating func setLocalDescription(_ description: JSEPDescription) throws(PeerConnectionError) -> [Action] {
        guard !isClosed else { throw .invalidState("the peer connection is closed") }
        do throws(JSEPError) { try jsep.setLocalDescription(description) } catch { throw .negotiation(error) }
        var actions: [Action] = [.emit(.signalingStateChanged(jsep.signalingState))]
        guard description.type != .rollback else { return actions }
        actions += prepareAgent(localOffer: description.type == .offer)
        if !gathering {
            localDescriptionAwaitingGather = description.type
            // An answer's gathering starts the checks: what they carry must be there first.
            return actions + prepareDTLSInChecks() + startGathering()
        }
        if agentCredentials != jsep.localCredentials {
            // A new ICE generation: the old remote credentials and end-of-candidates do not carry
            // over (the peer gathers again and trickles after its restart).
            agentCredentials = jsep.localCredentials
            remoteCredentialsApplied = nil
            remoteEndOfCandidates = false
            endOfCandidatesReported = false
            validPair = nil  // the restarted agent's check list starts empty
            actions.append(.restartAgent(jsep.localCredentials))
        }
        return actions + prepareDTLSInChecks() + finishLocalDescription(description.type)
    }

    /// What the agent gathered while `gather` ran (libnice finds host candidates at once): taken
    /// into the local description before `setLocalDescription` returns, so that
    /// `localDescription` read right after carries them (with end-of-candidates when nothing
    /// else is to come). Also called before creating a description while candidates are held.
    package mutating func agentGathered(_ candidates: [TernSDP.ICECandidate], complete: Bool) -> [Action] {
        for candidate in candidates where !jsep.localCandidates.contains(candidate) {
            jsep.addLocalCandidate(candidate)
        }
        if complete { jsep.setLocalGatheringComplete() }
        guard let type = localDescriptionAwaitingGather else { return [] }
        localDescriptionAwaitingGather = nil
        return finishLocalDescription(type)
    }

    /// `gather` failed: candidates flow as before it.
    package mutating func agentGatherFailed() -> [Action] {
        gathering = false
        agentCredentials = nil
        if localDescriptionAwaitingGather != nil, agent == .running { candidatesReleased = true }
        localDescriptionAwaitingGather = nil
        return []
    }

    /// W3C `setRemoteDescription`: applies it, hands the remote ICE credentials and candidates
    /// to ICE, and when the exchange completes, builds or reconfigures the transport.
    package mutating func setRemoteDescription(_ description: JSEPDescription) throws(PeerConnectionError) -> [Action] {
        guard !isClosed else { throw .invalidState("the peer connection is closed") }
        do throws(JSEPError) { try jsep.setRemoteDescription(description) } catch { throw .negotiation(error) }
        var actions: [Action] = [.emit(.signalingStateChanged(jsep.signalingState))]
        guard description.type != .rollback else { return actions }
        actions += prepareAgent(localOffer: false)
        actions += prepareDTLSInChecks()
        actions += applyRemoteICE()
        return actions + negotiationIfComplete()
    }

    /// W3C `addICECandidate`; nil is end-of-candidates (RFC 8838 §4.4).
    package mutating func addICECandidate(_ candidate: ICECandidateInit?) throws(PeerConnectionError) -> [Action] {
        guard !isClosed else { throw .invalidState("the peer connection is closed") }
        guard let candidate else {
            jsep.addRemoteEndOfCandidates()  // so that `remoteDescription` shows it
            return remoteCandidatesEnded()
        }
        // A trickled candidate can overtake the description that scopes it (RFC 8838 §4.3): the
        // peer gathers as soon as it set its local description, and the application's signaling
        // may deliver its candidates before our setRemoteDescription ran. W3C would throw
        // InvalidStateError and the candidate would be lost (ICE then never checks: both sides
        // stay `new`); it is kept and applied with the description.
        guard jsep.remoteDescription != nil else {
            if earlyRemoteCandidates.count < JSEPSession.maximumRemoteCandidatesPerSection {
                earlyRemoteCandidates.append(candidate)
            } else {
                earlyRemoteCandidatesDropped += 1
            }
            return []
        }
        do throws(JSEPError) { try jsep.addRemoteCandidate(candidate) } catch { throw .negotiation(error) }
        // An empty candidate is end-of-candidates for its section (W3C addIceCandidate; Firefox
        // signals it so, Chromium with null); with max-bundle the section's transport is the one.
        if candidate.isEndOfCandidates { return remoteCandidatesEnded() }
        guard remoteCredentialsApplied != nil, agent != .none else {
            pendingRemoteCandidates.append(candidate)
            return []
        }
        return [.addRemoteCandidate(candidate.candidate)]
    }

    /// End-of-candidates from the remote: kept for ICE, told to it now if it has the credentials.
    private mutating func remoteCandidatesEnded() -> [Action] {
        remoteEndOfCandidates = true
        return remoteCredentialsApplied == nil || agent == .none ? [] : [.addRemoteEndOfCandidates]
    }

    // MARK: Local intent (each fires negotiationneeded when the session changes)

    /// W3C `addTransceiver`; returns its index.
    package mutating func addTransceiver(_ transceiver: Transceiver) throws(PeerConnectionError) -> (Int, [Action]) {
        guard !isClosed else { throw .invalidState("the peer connection is closed") }
        do throws(JSEPError) { return (try jsep.addTransceiver(transceiver), [.emit(.negotiationNeeded)]) } catch {
            throw .negotiation(error)
        }
    }

    /// W3C `createDataChannel`: the first channel adds an application section, which needs
    /// negotiation; later ones do not.
    package mutating func addDataChannel() throws(PeerConnectionError) -> [Action] {
        guard !isClosed else { throw .invalidState("the peer connection is closed") }
        guard !jsep.wantsDataChannel else { return [] }
        do throws(JSEPError) { try jsep.addDataChannel() } catch { throw .negotiation(error) }
        return [.emit(.negotiationNeeded)]
    }

    /// W3C `addTrack` (webrtc-pc §5.1): reuses a transceiver of the kind that never had a
    /// sender and is not stopped (adding send to its direction), else adds a `sendrecv` one.
    package mutating func addTrack(_ kind: MediaKind, sender: SenderParameters) throws(PeerConnectionError) -> [Action] {
        guard !isClosed else { throw .invalidState("the peer connection is closed") }
        do throws(JSEPError) {
            if let index = jsep.transceivers.indices.first(where: { index in
                let transceiver = jsep.transceivers[index]
                return transceiver.kind == kind && transceiver.sender == nil && !transceiver.isStopped && !transceiver.isStopping
            }) {
                let direction = jsep.transceivers[index].direction
                try jsep.setSender(sender, forTransceiverAt: index)
                try jsep.setDirection(direction.addingSend, forTransceiverAt: index)
            } else {
                try jsep.addTransceiver(Transceiver(kind: kind, direction: .sendrecv, sender: sender))
            }
        } catch {
            throw .negotiation(error)
        }
        return [.emit(.negotiationNeeded)]
    }

    /// W3C `removeTrack`: the sender's transceiver stops sending at the next negotiation.
    package mutating func removeTrack(ssrc: UInt32) throws(PeerConnectionError) -> [Action] {
        guard !isClosed else { throw .invalidState("the peer connection is closed") }
        guard let index = jsep.transceivers.firstIndex(where: { $0.sender?.ssrc == ssrc }) else {
            throw .invalidState("removeTrack: this sender does not belong to this peer connection")
        }
        let transceiver = jsep.transceivers[index]
        guard !transceiver.isStopped, !transceiver.isStopping else { return [.emit(.negotiationNeeded)] }
        do throws(JSEPError) { try jsep.setDirection(transceiver.direction.removingSend, forTransceiverAt: index) } catch {
            throw .negotiation(error)
        }
        return [.emit(.negotiationNeeded)]
    }

    /// W3C `restartICE`: the next offer carries new ICE credentials (RFC 8445 §9).
    package mutating func restartICE() -> [Action] {
        jsep.restartICE()
        return [.emit(.negotiationNeeded)]
    }

    /// Changes a transceiver's direction.
    package mutating func setDirection(_ direction: RTPDirection, transceiverAt index: Int) throws(PeerConnectionError) -> [Action] {
        do throws(JSEPError) { try jsep.setDirection(direction, forTransceiverAt: index) } catch { throw .negotiation(error) }
        return [.emit(.negotiationNeeded)]
    }

    /// W3C `RTCRtpTransceiver.stop`.
    package mutating func stopTransceiver(at index: Int) throws(PeerConnectionError) -> [Action] {
        do throws(JSEPError) { try jsep.stopTransceiver(at: index) } catch { throw .negotiation(error) }
        return [.emit(.negotiationNeeded)]
    }

    // MARK: Steps

    /// The agent exists from the first description on: the agent that makes the first offer
    /// is controlling (RFC 8445 §6.1.1; JSEP §3.5.1). A pooled agent learns its role here.
    private mutating func prepareAgent(localOffer: Bool) -> [Action] {
        let role: ICERole = localOffer ? .controlling : .controlled
        switch agent {
        case .running: return []
        case .pooled:
            agent = .running
            return [.assignAgentRole(role)]
        case .none:
            agent = .running
            return [.createAgent(role: role)]
        }
    }

    /// Credentials, then gathering; the candidates it finds are held until the local
    /// description is applied.
    mutating func startGathering() -> [Action] {
        gathering = true
        candidatesReleased = false
        agentCredentials = jsep.localCredentials
        return [.gather(jsep.localCredentials)]
    }

    /// The rest of `setLocalDescription` once the agent gathers.
    private mutating func finishLocalDescription(_ type: SDPType) -> [Action] {
        var actions = releaseHeldCandidates()
        // An answer to an ICE restart restarts our agent, which clears the remote credentials
        // and candidates the offer gave it: give them again (RFC 8445 §9).
        if type != .offer { actions += applyRemoteICE() }
        return actions + negotiationIfComplete()
    }

    /// The remote credentials, the candidates in the description and any trickled before
    /// (RFC 8838 §4.3: candidates may arrive before the description that scopes them).
    private mutating func applyRemoteICE() -> [Action] {
        guard agent != .none, let remote = jsep.remoteDescription, let first = remote.media.first,
              let ufrag = first.iceUfrag ?? remote.iceUfrag, let pwd = first.icePwd ?? remote.icePwd else { return [] }
        let credentials = ICECredentials(ufrag: ufrag, pwd: pwd)
        guard remoteCredentialsApplied != credentials else { return [] }
        remoteCredentialsApplied = credentials
        // With max-bundle every candidate belongs to the first section's transport.
        var candidates = remote.media.flatMap(\.candidates).map(\.candidateString)
        candidates += pendingRemoteCandidates.map(\.candidate)
        pendingRemoteCandidates = []
        // Candidates that came before the description: those it scopes (matching mid or
        // m-line index) join it now; the rest are dropped, as JSEP would have refused them.
        for early in earlyRemoteCandidates where (try? jsep.addRemoteCandidate(early)) != nil {
            if early.isEndOfCandidates { remoteEndOfCandidates = true } else { candidates.append(early.candidate) }
        }
        earlyRemoteCandidates = []
        let endOfCandidates = remoteEndOfCandidates || remote.media.contains { $0.endOfCandidates }
        return [.applyRemoteICE(credentials: credentials, candidates: candidates, endOfCandidates: endOfCandidates)]
    }

    /// When the first exchange completes and both descriptions offer DTLS in the checks
    /// (`JSEPConfiguration.dtlsInChecksOption`): the agent carries it; as the DTLS client, the
    /// transport is built and the handshake started now, before the checks that carry it.
    private mutating func prepareDTLSInChecks() -> [Action] {
        guard offersDTLSInChecks, !carriesDTLSInChecks, !transportBuilt, jsep.signalingState == .stable,
              let negotiated = jsep.negotiated, let transport = negotiated.transport,
              transport.remoteICEOptions.contains(JSEPConfiguration.dtlsInChecksOption)
        else { return [] }
        carriesDTLSInChecks = true
        guard transport.dtlsRole == .client else { return [.carryDTLSInChecks] }
        transportBuilt = true
        return [.carryDTLSInChecks, .buildTransport(transport, dataChannel: negotiated.dataChannel), .startDTLSInChecks]
    }

    /// When offer and answer are both applied: build the transport on the first exchange and
    /// (re)configure streams and data channels on every exchange (RFC 9429 §5.10–5.11).
    private mutating func negotiationIfComplete() -> [Action] {
        guard jsep.signalingState == .stable, let negotiated = jsep.negotiated, agent != .none else { return [] }
        var actions: [Action] = []
        if !transportBuilt {
            guard let transport = negotiated.transport else { return [] }
            transportBuilt = true
            actions.append(.buildTransport(transport, dataChannel: negotiated.dataChannel))
        }
        let (send, receive) = streamConfigurations(negotiated)
        actions.append(.configureTransport(send: send, receive: receive, dataChannel: negotiated.dataChannel))
        // ICE connected before the exchange finished (the peer checked us first): start DTLS now.
        if iceCanCarryData { actions.append(.startDTLS) }
        return actions
    }

    /// The streams to send and receive, from the negotiated sections and our transceivers.
    func streamConfigurations(_ negotiated: NegotiatedSession) -> ([SendStreamConfiguration], [ReceiveStreamConfiguration]) {
        var sends: [SendStreamConfiguration] = []
        var receives: [ReceiveStreamConfiguration] = []
        for section in negotiated.media where !section.isRejected {
            let primary = section.codecs.filter { !$0.isRTX }
            guard let codec = primary.first else { continue }
            let midExtension = section.headerExtensions.first { $0.uri == JSEPConfiguration.midExtension }
                .flatMap { UInt8(exactly: $0.id) }
            let nack = codec.feedback.contains { $0.lowercased() == "nack" }
            let transportCC = section.headerExtensions.first { $0.uri == JSEPConfiguration.transportCCExtension }
                .flatMap { UInt8(exactly: $0.id) }
            if section.direction == .sendrecv || section.direction == .sendonly,
               let sender = jsep.transceivers.first(where: { $0.mid == section.mid })?.sender {
                // RTX is used when negotiated for the codec and we announced an RTX SSRC (RFC 4588 §8).
                let rtxCodec = section.codecs.first { $0.isRTX && $0.associatedPayloadType == codec.payloadType }
                var rtx: RTXStream?
                if let ssrc = sender.rtxSSRC, let rtxCodec { rtx = RTXStream(ssrc: ssrc, payloadType: rtxCodec.payloadType) }
                sends.append(SendStreamConfiguration(
                    mid: section.mid, kind: section.kind, ssrc: sender.ssrc, payloadType: codec.payloadType,
                    codecName: codec.name, clockRate: codec.clockRate, midExtensionID: midExtension,
                    nackEnabled: nack, rtx: rtx, transportCCExtensionID: transportCC))
            }
            if section.direction == .sendrecv || section.direction == .recvonly {
                var payloadTypes: [UInt8: (name: String, clockRate: Int)] = [:]
                for codec in primary { payloadTypes[codec.payloadType] = (codec.name, codec.clockRate) }
                var rtxPayloadTypes: [UInt8: UInt8] = [:]
                for rtx in section.codecs where rtx.isRTX {
                    if let apt = rtx.associatedPayloadType, payloadTypes[apt] != nil { rtxPayloadTypes[rtx.payloadType] = apt }
                }
                receives.append(ReceiveStreamConfiguration(
                    mid: section.mid, kind: section.kind, announcedSSRCs: section.remoteSSRCs,
                    payloadTypes: payloadTypes, midExtensionID: midExtension, nackEnabled: nack,
                    rtxPayloadTypes: rtxPayloadTypes, rtxSSRCs: section.remoteRTXSSRCs,
                    transportCCExtensionID: transportCC,
                    firEnabled: codec.feedback.contains { $0.lowercased() == "ccm fir" }))
            }
        }
        return (sends, receives)
    }
}

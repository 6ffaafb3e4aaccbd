import TernSDP
internal import CNice

// Handlers behind the door (`NiceCallbacks.swift`); they run on the loop thread.
extension ICETransport {
    func niceGatheringDone(stream: guint) {
        guard stream == streamID else { return }
        state.withLock { s in
            guard !s.closed, s.gatheringState != .complete else { return }
            s.gatheringState = .complete
            record(.gatheringComplete, in: &s)
            emit(.gatheringStateChanged(.complete))
            emit(.gatheringComplete)
        }
    }

    func niceNewCandidate(_ raw: UnsafeMutablePointer<NiceCandidate>) {
        guard raw.pointee.stream_id == streamID, raw.pointee.component_id == Self.componentID,
              let candidate = candidate(from: raw) else { return }
        // W3C `relay` policy (webrtc-pc §4.2.5, JSEP §3.5.3): only relay candidates may be used,
        // so nothing else is signalled (force-relay already keeps libnice from gathering them).
        let signalled = configuration.transportPolicy == .all || candidate.candidateType == .relay
        state.withLock { s in
            guard !s.closed else { return }
            s.localCandidates.append(candidate)
            record(.localCandidate(candidate: candidate, signalled: signalled), in: &s)
            if signalled { emit(.candidate(candidate)) }
        }
        if !signalled { logger.debug("not signalling \(candidate) under policy relay") }
    }

    func niceComponentState(stream: guint, component: guint, state raw: guint) {
        guard stream == streamID, component == Self.componentID else { return }
        let name = nice_component_state_to_string(NiceComponentState(rawValue: raw)).map { String(cString: $0) } ?? "\(raw)"
        let graceGeneration = state.withLock { s -> Int? in
            guard !s.closed else { return nil }
            var next = Self.w3cState(libnice: raw, current: s)
            if raw == NICE_COMPONENT_STATE_READY.rawValue {
                s.restarting = false
                s.consentLost = false
                silent.store(false, ordering: .relaxed)
            }
            var startGrace = false
            if next == .failed, s.selectedPair != nil, !s.consentLost {
                // Consent lost after connecting (libnice's 10 s): W3C `disconnected` first (it may
                // be already, for silence), and `failed` only when the grace runs out.
                next = .disconnected
                s.consentLost = true
                s.failureReason = Self.failureReason(s)
                startGrace = true
            }
            record(.stateChanged(state: next, libniceState: name), in: &s)
            guard next != s.transportState else { return startGrace ? s.stateGeneration : nil }
            if next == .failed { s.failureReason = Self.failureReason(s) }
            s.transportState = next
            s.stateGeneration += 1
            emit(.stateChanged(next))
            return startGrace ? s.stateGeneration : nil
        }
        logger.debug("libnice component state \(name)")
        if let graceGeneration {
            agent.loop.post(after: configuration.consentFailureGrace) { [weak self] in
                self?.consentGraceExpired(generation: graceGeneration)
            }
        }
    }

    /// RFC 7675 §5.1: 30 s without consent → failed (10 s from libnice + our grace).
    private func consentGraceExpired(generation: Int) {
        state.withLock { s in
            guard !s.closed, s.stateGeneration == generation, s.transportState == .disconnected else { return }
            s.transportState = .failed
            s.stateGeneration += 1
            record(.stateChanged(state: .failed, libniceState: "failed (consent grace expired)"), in: &s)
            emit(.stateChanged(.failed))
        }
    }

    func niceSelectedPair(stream: guint, component: guint, local: UnsafeMutablePointer<NiceCandidate>,
                          remote: UnsafeMutablePointer<NiceCandidate>) {
        guard stream == streamID, component == Self.componentID,
              let l = candidate(from: local), let r = candidate(from: remote) else { return }
        let pair = ICECandidatePair(local: l, remote: r)
        let changed = state.withLock { s -> Bool in
            guard !s.closed, s.selectedPair != pair else { return false }
            s.selectedPair = pair
            s.rtt.reset() // W3C pair statistics belong to one pair
            record(.selectedPair(pair: pair, reason: selectionReason(pair, role: s.role)), in: &s)
            return true
        }
        guard changed else { return }
        // Buffers and path MTU first, so whoever handles the event can read
        // `selectedSocketDatagramCapacity` and `selectedPathMaximumDatagramSize`. (Every libnice
        // callback runs on this thread, so no other ICE event can slip in between.)
        enlargeSelectedSocketBuffers()
        measureSelectedPath(pair)
        state.withLock { s in
            if !s.closed { emit(.selectedPairChanged(pair)) }
        }
        roundTripPairSelected()
    }

    /// A check made `local`–`remote` valid before any pair was selected (Tern's libnice patch):
    /// data sent now leaves on the best valid pair (RFC 8445 §12.1), so DTLS can start.
    func niceValidPair(stream: guint, component: guint, local: UnsafeMutablePointer<NiceCandidate>,
                       remote: UnsafeMutablePointer<NiceCandidate>) {
        guard stream == streamID, component == Self.componentID,
              let l = candidate(from: local), let r = candidate(from: remote) else { return }
        let pair = ICECandidatePair(local: l, remote: r)
        state.withLock { s in
            guard !s.closed, s.selectedPair == nil, s.validPair == nil else { return }
            s.validPair = pair
            record(.validPair(pair: pair), in: &s)
            emit(.validPairFound(pair))
        }
    }

    func niceReceive(_ bytes: UnsafeRawBufferPointer) {
        noteInbound()
        // Tern's RTT probes (first byte 0xFE, which RFC 7983 demultiplexers drop) stop here.
        if PairProbeMessage.looksLikeProbe(bytes) {
            roundTripProbeReceived(Array(bytes))
            return
        }
        guard let handler = receiveHandler.withLock({ $0 }) else { return }
        packetsReceived.add(1, ordering: .relaxed)
        bytesReceived.add(UInt64(bytes.count), ordering: .relaxed)
        handler.body(Array(bytes))
    }

    /// libnice candidate → our value, through its own SDP text (one format, one parser).
    func candidate(from raw: UnsafeMutablePointer<NiceCandidate>) -> ICECandidate? {
        guard let text = nice_agent_generate_local_candidate_sdp(agent.pointer, raw) else { return nil }
        defer { g_free(text) }
        do {
            return try ICECandidate(agentLine: String(cString: text))
        } catch {
            logger.warning("libnice produced a candidate we cannot parse: \(error)")
            return nil
        }
    }

    /// Best explanation for a FAILED component, from what came before it.
    static func failureReason(_ s: State) -> String {
        if s.selectedPair != nil {
            return "connectivity lost after connecting: consent expired (RFC 7675 §5.1; libnice 0.1.21 gives up after 10 s)"
        }
        if s.remoteCandidateCount == 0 {
            return "no remote candidates were added (RFC 8445 §6.1.2.2: nothing to check)"
        }
        return "all candidate pair checks failed: peer unreachable or wrong remote credentials (RFC 8445 §7.2.5.2)"
    }

    /// libnice `NiceComponentState` → W3C `RTCIceTransportState`.
    static func w3cState(libnice raw: guint, current s: State) -> ICETransportState {
        let wasUp = s.transportState == .connected || s.transportState == .completed
        switch raw {
        case NICE_COMPONENT_STATE_DISCONNECTED.rawValue:
            return wasUp || s.transportState == .disconnected ? .disconnected : .new
        case NICE_COMPONENT_STATE_GATHERING.rawValue:
            // Gathering is not a transport state (W3C keeps `new` before checks; a restart
            // keeps whatever state the transport was in until checks start).
            return s.transportState
        case NICE_COMPONENT_STATE_CONNECTING.rawValue:
            // During an ICE restart the old pair keeps carrying data: stay connected.
            return s.restarting && wasUp ? s.transportState : .checking
        case NICE_COMPONENT_STATE_CONNECTED.rawValue:
            return .connected
        case NICE_COMPONENT_STATE_READY.rawValue:
            return s.remoteEndOfCandidates && s.gatheringState == .complete && s.pendingMDNS == 0 ? .completed : .connected
        case NICE_COMPONENT_STATE_FAILED.rawValue:
            return .failed
        default:
            return s.transportState
        }
    }
}

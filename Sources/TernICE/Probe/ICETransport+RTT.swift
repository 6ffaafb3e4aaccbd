import TernCore

// Round-trip time of the selected pair (W3C RTCIceCandidatePairStats currentRoundTripTime,
// totalRoundTripTime, requestsSent, responsesReceived). libnice 0.1.21 exposes no timing and
// swallows answers to Binding requests it did not send itself, so Tern sends its own probe
// (`PairProbeMessage`) on the selected pair right after each selection and then every
// `roundTripProbeInterval`, through `nice_agent_send` — on exactly that pair's path, through
// the TURN server for a relay pair — and a Tern peer answers it from its receive path.
// Everything here runs on the loop thread. Docs/ICE.md, "Selected pair RTT".
extension ICETransport {
    /// Called after a new pair was selected: probe it now, and start the periodic timer once.
    func roundTripPairSelected() {
        lastInboundNanoseconds.store(clock.now().nanoseconds, ordering: .relaxed)  // a fresh pair is not silent
        guard let interval = configuration.roundTripProbeInterval else { return }
        let startTimer = state.withLock { s -> Bool in
            defer { s.rttTimerRunning = true }
            return !s.rttTimerRunning
        }
        _ = agent.loop.post { [weak self] in self?.sendRoundTripProbe() }
        if startTimer { scheduleRoundTripProbe(after: interval) }
    }

    private func scheduleRoundTripProbe(after interval: Duration) {
        _ = agent.loop.post(after: interval) { [weak self] in
            guard let self, !self.state.withLock({ $0.closed }) else { return }
            self.checkLiveness(now: self.clock.now())
            self.sendRoundTripProbe()
            self.scheduleRoundTripProbe(after: interval)
        }
    }

    /// One probe on the selected pair, if one works and we know the peer's password.
    /// Skipped during an ICE restart (credentials are changing) and once the peer has shown
    /// it does not answer probes (not a Tern peer).
    func sendRoundTripProbe() {
        let now = clock.now()
        // Two draws of the system generator (a getrandom call each), not one per byte.
        var random = SystemRandomNumberGenerator()
        let words = [random.next(), random.next()] as [UInt64]
        let id = Array(words.withUnsafeBytes { $0.prefix(PairProbeMessage.idCount) })
        let request = state.withLock { s -> [UInt8]? in
            let wasIgnoring = s.rtt.peerIgnoresProbes()
            for _ in 0..<s.rtt.expire(now: now) {
                record(.roundTripProbeFailed(reason: "no answer within \(s.rtt.timeout)"), in: &s)
            }
            if s.rtt.peerIgnoresProbes() {
                if !wasIgnoring {
                    record(.roundTripProbeFailed(reason: "the peer answers no probe (not a Tern peer?): "
                        + "no more probes on this pair"), in: &s)
                }
                return nil
            }
            // A selected pair is enough for `nice_agent_send` (the first probe may run before the
            // state change that follows the selection); not while consent is lost.
            // During a silence they keep going: the first answer ends it.
            let silenced = s.transportState == .disconnected && silent.load(ordering: .relaxed)
            guard !s.closed, !s.restarting, s.selectedPair != nil, let remote = s.remoteCredentials,
                  s.transportState != .disconnected || silenced, s.transportState != .failed else { return nil }
            return s.rtt.makeRequest(now: now, id: id, remotePassword: remote.pwd)
        }
        if let request { sendProbe(request) }
    }

    /// Handles a probe from the receive path (`PairProbeMessage.looksLikeProbe` held): answers
    /// a request, records an answer. Never passed on to the receive handler.
    func roundTripProbeReceived(_ bytes: [UInt8]) {
        let now = clock.now()
        let local = localCredentials.pwd
        let reply = state.withLock { s -> [UInt8]? in
            guard !s.closed, let remote = s.remoteCredentials else { return nil }
            switch s.rtt.handle(bytes, now: now, localPassword: local, remotePassword: remote.pwd) {
            case let .answer(reply):
                return reply
            case let .measured(rtt):
                record(.roundTripMeasured(roundTripTime: rtt, responsesReceived: s.rtt.responsesReceived), in: &s)
            case let .rejected(reason):
                record(.roundTripProbeFailed(reason: reason), in: &s)
            }
            return nil
        }
        if let reply { sendProbe(reply) }
    }

    private func sendProbe(_ bytes: [UInt8]) {
        do {
            _ = try sendUncounted(bytes)
        } catch {
            logger.debug("RTT probe not sent: \(error)")
        }
    }
}

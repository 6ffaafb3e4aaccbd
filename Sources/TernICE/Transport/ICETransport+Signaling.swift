import TernSDP
public import TernCore
internal import CNice

// What the signalling layer calls: gathering, remote credentials and candidates, restart.
extension ICETransport {
    /// Starts gathering (RFC 8445 §5.1.1). Candidates arrive as `.candidate` events
    /// (trickle ICE, RFC 8838), then `.gatheringComplete`. Idempotent.
    public func gather() throws(ICEError) {
        let start = state.withLock { s -> Bool in
            guard !s.closed, s.gatheringState == .new else { return false }
            s.gatheringState = .gathering
            record(.gatheringStarted, in: &s)
            emit(.gatheringStateChanged(.gathering))
            return true
        }
        guard start else {
            if state.withLock({ $0.closed }) { throw .closed }
            return
        }
        let agent = self.agent, stream = streamID
        let ok = try onLoop { nice_agent_gather_candidates(agent.pointer, stream) != 0 }
        guard ok else {
            state.withLock { $0.gatheringState = .new } // nothing started: a retry may work
            throw .rejected(operation: "nice_agent_gather_candidates",
                            reason: "no usable local address or server (check allowedAddresses and TURN settings)")
        }
    }

    /// Changes the role before connectivity checks start: a transport that gathered before its
    /// role was known (a candidate pool, W3C `iceCandidatePoolSize`) learns it from the first
    /// description applied (RFC 8445 §6.1.1: the offerer controls). libnice also switches roles
    /// by itself when it resolves a role conflict (RFC 8445 §7.3.1.1).
    public func setRole(_ role: ICERole) throws(ICEError) {
        let agent = self.agent
        try onLoop {
            tern_g_object_set_boolean(agent.object, "controlling-mode",
                                      role == .controlling ? tern_g_true : tern_g_false)
        }
        state.withLock { $0.role = role }
    }

    /// Sets our own ufrag/password instead of libnice's random ones (RFC 8445 §5.3: ufrag ≥ 4,
    /// password ≥ 22 characters of ice-char).
    public func setLocalCredentials(_ credentials: ICECredentials) throws(ICEError) {
        let agent = self.agent, stream = streamID
        let ok = try onLoop {
            nice_agent_set_local_credentials(agent.pointer, stream, credentials.ufrag, credentials.pwd) != 0
        }
        guard ok else { throw .rejected(operation: "nice_agent_set_local_credentials", reason: "refused") }
    }

    /// The peer's ufrag/password (from its SDP `a=ice-ufrag` / `a=ice-pwd`).
    public func setRemoteCredentials(_ credentials: ICECredentials) throws(ICEError) {
        guard !credentials.ufrag.isEmpty, !credentials.pwd.isEmpty else {
            throw .invalidConfiguration(reason: "remote ICE credentials must not be empty")
        }
        let agent = self.agent, stream = streamID
        let ok = try onLoop {
            guard nice_agent_set_remote_credentials(agent.pointer, stream, credentials.ufrag, credentials.pwd) != 0
            else { return false }
            // Recorded on the loop thread, before libnice runs a check with them (the first
            // check can leave on the loop's next iteration): the trace keeps cause before effect.
            noteRemoteCredentials(credentials)
            return true
        }
        guard ok else { throw .rejected(operation: "nice_agent_set_remote_credentials", reason: "refused") }
    }

    /// Keeps the peer's credentials (they key the RTT probes) and records them in the trace.
    private func noteRemoteCredentials(_ credentials: ICECredentials) {
        state.withLock { s in
            s.remoteCredentials = credentials
            record(.remoteCredentialsSet(usernameFragment: credentials.ufrag), in: &s)
        }
    }

    /// Adds one remote candidate (`candidate:...` or `a=candidate:...`). Throws only for a
    /// malformed line or a closed transport; a well-formed candidate this agent cannot use
    /// (component 2 under rtcp-mux, TCP with ICE-TCP off, an address family with no local
    /// candidate) is dropped with a `.remoteCandidateDropped` event and a reason. Remote
    /// `.local` mDNS names are resolved in the background (one-shot mDNS query) and dropped
    /// the same way if no answer comes within `configuration.mdnsResolutionTimeout`.
    public func addRemoteCandidate(_ sdp: String) throws(ICEError) {
        let candidate = try ICECandidate(agentLine: sdp)
        guard !state.withLock({ $0.closed }) else { throw .closed }
        guard candidate.component == Self.componentID else {
            drop(candidate, reason: "component \(candidate.component) is unused with rtcp-mux")
            return
        }
        guard candidate.isMDNS else {
            try addResolved(candidate)
            return
        }
        guard candidate.hasMDNSCandidateName else {
            // Only the names browsers make are resolved: any other `.local` name would have this
            // agent query the user's network for hosts the peer chose (printers, NAS boxes).
            drop(candidate, reason: "'\(candidate.address)' is not an mDNS candidate name (a UUID followed by .local, draft-ietf-mmusic-mdns-ice-candidates §3.1.1)")
            return
        }
        let limit = configuration.maximumMDNSCandidates
        let started = state.withLock { s -> Bool in
            guard s.mdnsResolutionsStarted < limit else { return false }
            s.mdnsResolutionsStarted += 1
            s.pendingMDNS += 1
            return true
        }
        guard started else {
            drop(candidate, reason: "more than \(limit) mDNS candidates from the peer (ICEConfiguration.maximumMDNSCandidates)")
            return
        }
        MDNSResolver.shared.resolve(candidate.address, timeout: configuration.mdnsResolutionTimeout,
                                    destination: mdnsDestination) { [weak self] outcome in
            guard let self else { return }
            switch outcome {
            case let .resolved(address):
                if let refusal = self.refusal(ofMDNSAnswer: address, for: candidate.address) {
                    self.drop(candidate, reason: refusal)
                    break
                }
                var resolved = candidate
                resolved.address = address
                do { try self.addResolved(resolved) } catch { self.drop(candidate, reason: "\(error)") }
            case let .failed(reason):
                self.drop(candidate, reason: reason)
            }
            self.mdnsFinished()
        }
    }

    /// Why an mDNS answer cannot be the peer's address, or nil. Loopback is refused unless this
    /// agent gathers on loopback itself: else an answer of 127.0.0.1 from anyone on the link would
    /// point this agent's checks at services on its own host.
    private func refusal(ofMDNSAnswer address: String, for name: String) -> String? {
        switch IPAddressClass(address) {
        case .unicast:
            return nil
        case .loopback:
            let ownLoopback = localCandidates.contains { IPAddressClass($0.address) == .loopback }
            return ownLoopback ? nil : "mDNS answer for '\(name)' is a loopback address (\(address)) and this agent has no loopback candidate"
        case .multicast, .unspecified, .broadcast, .notAnAddress:
            return "mDNS answer for '\(name)' is not a unicast address (\(address))"
        }
    }

    /// The peer finished gathering (RFC 8838 §4.4, `a=end-of-candidates`). Without it, libnice
    /// (in trickle mode) keeps waiting for more candidates instead of failing.
    public func addRemoteEndOfCandidates() throws(ICEError) {
        let deferIt = state.withLock { s -> Bool in
            if s.pendingMDNS > 0 { s.endOfCandidatesAfterMDNS = true; return true }
            return false
        }
        if !deferIt { try applyRemoteEndOfCandidates() }
    }

    /// The peer's credentials, its candidates and, if it sent it, its end-of-candidates, as a
    /// description carries them: the same as `setRemoteCredentials`, `addRemoteCandidate` for
    /// each line and `addRemoteEndOfCandidates`, with one trip to the loop thread instead of
    /// one per call (each trip costs a thread wake-up, ~0.1 ms, on the set-up path). `.local`
    /// (mDNS) candidates still resolve in the background.
    public func applyRemoteDescription(credentials: ICECredentials, candidates lines: [String],
                                       endOfCandidates: Bool) throws(ICEError) {
        guard !credentials.ufrag.isEmpty, !credentials.pwd.isEmpty else {
            throw .invalidConfiguration(reason: "remote ICE credentials must not be empty")
        }
        var direct: [ICECandidate] = []
        var resolving: [String] = []
        for line in lines {
            let candidate = try ICECandidate(agentLine: line)
            if candidate.component != Self.componentID {
                drop(candidate, reason: "component \(candidate.component) is unused with rtcp-mux")
            } else if candidate.isMDNS {
                resolving.append(line)
            } else {
                direct.append(candidate)
            }
        }
        guard !state.withLock({ $0.closed }) else { throw .closed }
        let agent = self.agent, stream = streamID
        let finishNow = endOfCandidates && resolving.isEmpty && state.withLock { $0.pendingMDNS == 0 }
        // Credentials and candidates are recorded on the loop thread as libnice takes them, before
        // any check with them can run (see `setRemoteCredentials`).
        let (credentialsSet, endSet) = try onLoop { () -> (Bool, Bool) in
            guard nice_agent_set_remote_credentials(agent.pointer, stream, credentials.ufrag, credentials.pwd) != 0 else {
                return (false, false)
            }
            noteRemoteCredentials(credentials)
            for candidate in direct { account(candidate, added: giveToAgent(candidate)) }
            let endSet = finishNow ? nice_agent_peer_candidate_gathering_done(agent.pointer, stream) != 0 : false
            return (true, endSet)
        }
        guard credentialsSet else { throw .rejected(operation: "nice_agent_set_remote_credentials", reason: "refused") }
        for line in resolving { try addRemoteCandidate(line) }
        if finishNow {
            guard endSet else {
                throw .rejected(operation: "nice_agent_peer_candidate_gathering_done", reason: "refused")
            }
            state.withLock { s in
                s.remoteEndOfCandidates = true
                record(.remoteEndOfCandidates, in: &s)
            }
        } else if endOfCandidates {
            try addRemoteEndOfCandidates()
        }
    }

    /// ICE restart (RFC 8445 §9): new local credentials, remote candidates cleared. The old pair
    /// keeps carrying data until a new one is selected. Signal the returned credentials and the
    /// local candidates re-emitted as `.candidate` events (then `.gatheringComplete`).
    @discardableResult
    public func restart() throws(ICEError) -> ICECredentials {
        let agent = self.agent, stream = streamID
        state.withLock { s in
            s.restarting = true
            s.remoteEndOfCandidates = false
            s.validPair = nil  // a new check list: a pair valid in it is reported again
        }
        let ok = try onLoop { nice_agent_restart_stream(agent.pointer, stream) != 0 }
        guard ok else { throw .rejected(operation: "nice_agent_restart_stream", reason: "refused") }
        let credentials = localCredentials
        state.withLock { s in
            record(.restarted(usernameFragment: credentials.ufrag), in: &s)
            let signalled = s.localCandidates.filter { configuration.transportPolicy == .all || $0.candidateType == .relay }
            for candidate in signalled { emit(.candidate(candidate)) }
            if s.gatheringState == .complete { emit(.gatheringComplete) }
        }
        return credentials
    }

    // MARK: Internals

    func addResolved(_ candidate: ICECandidate) throws(ICEError) {
        try onLoop { account(candidate, added: giveToAgent(candidate)) }
    }

    /// Hands one candidate to libnice (on the loop thread): libnice's count of candidates
    /// added, or -2 when it cannot parse the line.
    func giveToAgent(_ candidate: ICECandidate) -> Int32 {
        let line = "a=" + candidate.agentLine
        guard let parsed = nice_agent_parse_remote_candidate_sdp(agent.pointer, streamID, line) else { return -2 }
        defer { nice_candidate_free(parsed) }
        let list = g_slist_append(nil, parsed)
        defer { g_slist_free(list) }
        return nice_agent_set_remote_candidates(agent.pointer, streamID, Self.componentID, list)
    }

    /// Records what libnice made of a candidate (`giveToAgent`'s result).
    func account(_ candidate: ICECandidate, added: Int32) {
        switch added {
        case -2: drop(candidate, reason: "libnice could not parse it")
        case ..<1:
            let why = candidate.transportProtocol == .tcp && !configuration.iceTCP
                ? "TCP candidate while ICE-TCP is off" : "libnice has no local candidate to pair it with"
            drop(candidate, reason: why)
        default: state.withLock { $0.remoteCandidateCount += 1; record(.remoteCandidateAdded(candidate: candidate), in: &$0) }
        }
    }

    /// Remote candidates dropped so far (unusable, over a limit, unresolved); each also comes as
    /// a `.remoteCandidateDropped` event with its reason.
    public var remoteCandidatesDropped: Int { state.withLock { $0.remoteCandidatesDropped } }

    func drop(_ candidate: ICECandidate, reason: String) {
        logger.info("dropping remote candidate \(candidate.candidateString): \(reason)")
        state.withLock { s in
            guard !s.closed else { return }
            s.remoteCandidatesDropped += 1
            record(.remoteCandidateDropped(candidate: candidate, reason: reason), in: &s)
            emit(.remoteCandidateDropped(candidate, reason: reason))
        }
    }

    private func mdnsFinished() {
        let flush = state.withLock { s -> Bool in
            s.pendingMDNS -= 1
            guard s.pendingMDNS == 0, s.endOfCandidatesAfterMDNS else { return false }
            s.endOfCandidatesAfterMDNS = false
            return true
        }
        if flush { try? applyRemoteEndOfCandidates() }
    }

    private func applyRemoteEndOfCandidates() throws(ICEError) {
        let agent = self.agent, stream = streamID
        let ok = try onLoop { nice_agent_peer_candidate_gathering_done(agent.pointer, stream) != 0 }
        guard ok else { throw .rejected(operation: "nice_agent_peer_candidate_gathering_done", reason: "refused") }
        state.withLock { s in
            s.remoteEndOfCandidates = true
            record(.remoteEndOfCandidates, in: &s)
        }
    }
}

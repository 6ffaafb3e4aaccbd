import Testing
import TernCore
import TernICE
import TernPeer
import TernSDP

/// Two `PeerCore`s against each other in virtual time (`CorePair`): the negotiation, candidate
/// flow and state aggregation of a peer connection, with no sockets and no sleeps.
@Suite("PeerCore: negotiation and candidate flow in virtual time")
struct PeerCoreScenarioTests {
    @Test("offer/answer: both sides reach stable and connected; the transport is built once; candidates trickle in W3C order")
    func offerAnswer() throws {
        let pair = CorePair()
        try pair.connect()
        #expect(pair.operationErrors.isEmpty, "\(pair.operationErrors)")
        for side in [pair.caller, pair.callee] {
            #expect(side.core.jsep.signalingState == .stable)
            #expect(side.core.connectionState == .connected, "\(side.name): \(side.connectionStates)")
            #expect(side.connectionStates == [.connecting, .connected], "\(side.name)")
            #expect(side.transportsBuilt == 1 && side.configurations == 1 && side.dtlsStarted)
            // host (taken into the description while gather ran), then srflx, then end-of-candidates
            let candidates = side.reportedCandidates
            #expect(candidates.count == 3 && candidates.last == .some(nil), "\(side.name): \(candidates)")
            #expect(candidates.first??.candidate.contains("typ host") == true)
        }
        #expect(pair.caller.signalingStates == [.haveLocalOffer, .stable])
        #expect(pair.callee.signalingStates == [.haveRemoteOffer, .stable])
        #expect(pair.caller.agent?.role == .controlling && pair.callee.agent?.role == .controlled)
        // Creating the data channel asked for negotiation; the first event of the local
        // description is its signaling state; gathering follows it.
        let first = pair.caller.events.prefix(2)
        guard case .negotiationNeeded = first.first, case .signalingStateChanged(.haveLocalOffer) = first.last else {
            Issue.record("first caller events: \(Array(first))")
            return
        }
    }

    @Test("a valid pair starts DTLS a round trip before nomination; the selection repeats an unanswered ClientHello once")
    func dtlsStartsOnTheValidPair() throws {
        let pair = CorePair()
        pair.reportsValidPairs = true
        try pair.connect()
        #expect(pair.operationErrors.isEmpty, "\(pair.operationErrors)")
        let selectedAt = try #require(pair.selectedAt)
        for side in [pair.caller, pair.callee] {
            let startedAt = try #require(side.dtlsStartedAt, "\(side.name) never started DTLS")
            #expect(selectedAt - startedAt == pair.roundTrip, "\(side.name): DTLS one nomination round trip before selection")
            #expect(side.helloRepeats == 1, "\(side.name)")
            #expect(side.core.connectionState == .connected, "\(side.name): \(side.connectionStates)")
        }
    }

    @Test("without valid-pair reports DTLS starts at the selected pair and nothing is repeated")
    func dtlsWaitsForSelectionWithoutValidPairs() throws {
        let pair = CorePair()
        try pair.connect()
        let selectedAt = try #require(pair.selectedAt)
        for side in [pair.caller, pair.callee] {
            #expect(side.dtlsStartedAt == selectedAt, "\(side.name)")
            #expect(side.helloRepeats == 0, "\(side.name)")
        }
    }

    @Test("both sides offering DTLS in the checks: the answerer (DTLS client) builds its transport and makes its ClientHello before its gathering starts the checks; the offerer carries before it gets the answer's candidates")
    func dtlsInChecksIsPreparedBeforeTheChecks() throws {
        let option = JSEPConfiguration.dtlsInChecksOption
        let pair = CorePair(callerICEOptions: ["trickle", option], calleeICEOptions: ["trickle", option])
        try pair.connect()
        #expect(pair.operationErrors.isEmpty, "\(pair.operationErrors)")
        let callee = pair.callee.actionLog, caller = pair.caller.actionLog
        #expect(pair.callee.carriesDTLSInChecks && pair.callee.dtlsStartedInChecks)
        #expect(Array(callee.drop { $0 != "carryDTLSInChecks" }.prefix(4))
                == ["carryDTLSInChecks", "buildTransport", "startDTLSInChecks", "gather"], "\(callee)")
        #expect(pair.caller.carriesDTLSInChecks && !pair.caller.dtlsStartedInChecks, "the offerer is the DTLS server")
        let carry = try #require(caller.firstIndex(of: "carryDTLSInChecks"))
        #expect(caller.lastIndex(of: "applyRemoteICE").map { carry < $0 } == true, "\(caller)")
        for side in [pair.caller, pair.callee] {
            #expect(side.transportsBuilt == 1, "\(side.name)")
            #expect(side.core.connectionState == .connected, "\(side.name): \(side.connectionStates)")
        }
    }

    @Test("a pooled answerer (its gathering done before the offer) carries DTLS in its checks too, its ClientHello made as its answer is applied")
    func dtlsInChecksFromAPooledAnswerer() throws {
        let option = JSEPConfiguration.dtlsInChecksOption
        let pair = CorePair(callerICEOptions: ["trickle", option], calleeICEOptions: ["trickle", option])
        pair.perform(pair.callee.core.startCandidatePool(), at: pair.callee)
        pair.run(for: .milliseconds(100))
        try pair.connect()
        #expect(pair.operationErrors.isEmpty, "\(pair.operationErrors)")
        #expect(pair.callee.carriesDTLSInChecks && pair.callee.dtlsStartedInChecks, "\(pair.callee.actionLog)")
        #expect(pair.callee.transportsBuilt == 1 && pair.callee.core.connectionState == .connected)
    }

    @Test("DTLS in the checks only when both descriptions list it: with one side not offering it neither side carries, DTLS starts as before")
    func dtlsInChecksNeedsBothSides() throws {
        for (callerOptions, calleeOptions) in [(["trickle", JSEPConfiguration.dtlsInChecksOption], ["trickle"]),
                                               (["trickle"], ["trickle", JSEPConfiguration.dtlsInChecksOption])] {
            let pair = CorePair(callerICEOptions: callerOptions, calleeICEOptions: calleeOptions)
            try pair.connect()
            for side in [pair.caller, pair.callee] {
                #expect(!side.carriesDTLSInChecks && !side.dtlsStartedInChecks, "\(side.name): \(side.actionLog)")
                #expect(side.dtlsStarted && side.core.connectionState == .connected, "\(side.name)")
            }
        }
    }

    @Test("glare: the polite side's remote offer rolls its own offer back; an explicit rollback returns to stable")
    func glareWithRollback() throws {
        let pair = CorePair()
        // Both offer at once; the callee is polite (perfect negotiation): it takes the caller's
        // offer (implicit rollback) and answers; the caller, impolite, ignores the callee's offer.
        let callerOffer = try pair.createOffer(pair.caller)
        try pair.setLocal(pair.caller, callerOffer)
        let calleeOffer = try pair.createOffer(pair.callee)
        try pair.setLocal(pair.callee, calleeOffer)
        #expect(pair.callee.core.jsep.signalingState == .haveLocalOffer)
        pair.deliver(callerOffer, to: pair.callee)
        pair.run()
        #expect(pair.operationErrors.isEmpty, "\(pair.operationErrors)")
        #expect(pair.callee.signalingStates == [.haveLocalOffer, .haveRemoteOffer, .stable])
        #expect(pair.caller.core.connectionState == .connected && pair.callee.core.connectionState == .connected)
        #expect(pair.callee.agent?.role == .controlling, "the callee's agent took its role from its own first offer")

        // An explicit rollback of a new local offer.
        let again = try pair.createOffer(pair.caller)
        try pair.setLocal(pair.caller, again)
        try pair.setLocal(pair.caller, JSEPDescription(type: .rollback, sdp: ""))
        #expect(pair.caller.core.jsep.signalingState == .stable)
        #expect(pair.caller.core.jsep.pendingLocal == nil && pair.caller.core.jsep.currentLocal != nil)
        #expect(pair.caller.signalingStates.suffix(2) == [.haveLocalOffer, .stable])
    }

    @Test("candidates trickled before the remote description arrives are kept and checked the moment it does")
    func trickleBeforeDescription() throws {
        let pair = CorePair()
        pair.descriptionDelay = .milliseconds(200)
        pair.candidateDelay = .milliseconds(5)
        // The description carries no candidate: only the trickled ones can connect.
        try pair.sendOffer(from: pair.caller)
        pair.run(for: .milliseconds(100))
        #expect(pair.callee.core.jsep.remoteDescription == nil)
        #expect(pair.callee.core.earlyRemoteCandidates.count == 2, "host and srflx kept (end-of-candidates is a flag)")
        #expect(pair.operationErrors.isEmpty, "\(pair.operationErrors)")
        pair.run()
        #expect(pair.callee.core.earlyRemoteCandidates.isEmpty)
        let callee = try #require(pair.callee.agent)
        #expect(callee.remoteCandidates.contains { $0.contains("203.0.113.1") }, "the early srflx candidate reached ICE: \(callee.remoteCandidates)")
        #expect(pair.caller.core.connectionState == .connected && pair.callee.core.connectionState == .connected)
    }

    @Test("an empty candidate string (Firefox's end-of-candidates) marks end-of-candidates and never reaches ICE as a candidate")
    func emptyCandidateIsEndOfCandidates() throws {
        // Before the description: kept, then applied as the end-of-candidates flag.
        let early = CorePair()
        early.descriptionDelay = .milliseconds(200)
        try early.sendOffer(from: early.caller)
        early.run(for: .milliseconds(50))
        _ = try early.callee.core.addICECandidate(ICECandidateInit(candidate: "", sdpMid: "0"))
        early.run()
        let agent = try #require(early.callee.agent)
        #expect(!agent.remoteCandidates.contains(""), "\(agent.remoteCandidates)")
        #expect(agent.remoteEndOfCandidates)
        #expect(early.callee.core.connectionState == .connected)

        // After the descriptions: the flag, not a candidate the agent would refuse.
        let pair = CorePair()
        try pair.connect()
        let actions = try pair.callee.core.addICECandidate(ICECandidateInit(candidate: "", sdpMid: "0"))
        #expect(actions.count == 1)
        if case .addRemoteEndOfCandidates = actions.first {} else { Issue.record("actions \(actions)") }
        let remote = try #require(pair.callee.core.description(\.currentRemote, local: false))
        #expect(remote.sdp.contains("a=end-of-candidates"))
    }

    @Test("a peer trickling thousands of candidates before its description: 256 kept, the rest refused and counted")
    func earlyCandidatesAreBounded() throws {
        let pair = CorePair()
        for port in 0..<1_000 {
            let candidate = ICECandidateInit(candidate: "candidate:1 1 udp 2122260223 10.0.0.1 \(10_000 + port) typ host", sdpMid: "0")
            _ = try pair.callee.core.addICECandidate(candidate)
        }
        #expect(pair.callee.core.earlyRemoteCandidates.count == JSEPSession.maximumRemoteCandidatesPerSection)
        #expect(pair.callee.core.earlyRemoteCandidatesDropped == 1_000 - JSEPSession.maximumRemoteCandidatesPerSection)
    }

    @Test("candidates trickled after the descriptions reach ICE one by one and show in remoteDescription")
    func trickleAfterDescriptions() throws {
        let pair = CorePair()
        pair.reflexiveDelay = .milliseconds(400)  // gathered after both descriptions were applied
        try pair.connect()
        #expect(pair.operationErrors.isEmpty, "\(pair.operationErrors)")
        for side in [pair.caller, pair.callee] {
            let peer = pair.other(side)
            let agent = try #require(side.agent)
            #expect(agent.remoteCandidates.contains { $0.contains("203.0.113.\(peer === pair.caller ? 1 : 2)") }, "\(side.name): \(agent.remoteCandidates)")
            #expect(agent.remoteEndOfCandidates)
            let remote = try #require(side.core.description(\.currentRemote, local: false))
            #expect(remote.sdp.contains("typ srflx") && remote.sdp.contains("a=end-of-candidates"), "\(side.name)")
            let local = try #require(side.core.description(\.currentLocal, local: true))
            #expect(local.sdp.contains("typ srflx"), "localDescription carries the candidates gathered since")
        }
    }

    @Test("ICE restart: new credentials both ways, both agents restarted and given the new remote credentials, connected again; the transport is kept")
    func iceRestart() throws {
        let pair = CorePair()
        try pair.connect()
        let before = try #require(pair.caller.agent?.localCredentials)
        let fired = pair.caller.events.count
        try pair.change(pair.caller) { $0.restartICE() }
        #expect(pair.caller.events.dropFirst(fired).contains { if case .negotiationNeeded = $0 { true } else { false } },
                "restartICE fires negotiationneeded")
        try pair.sendOffer(from: pair.caller)
        pair.run()
        #expect(pair.operationErrors.isEmpty, "\(pair.operationErrors)")
        let callerAgent = try #require(pair.caller.agent), calleeAgent = try #require(pair.callee.agent)
        #expect(callerAgent.localCredentials != before)
        #expect(pair.caller.agentRestarts == 1 && pair.callee.agentRestarts == 1)
        #expect(callerAgent.remoteCredentials == calleeAgent.localCredentials && calleeAgent.remoteCredentials == callerAgent.localCredentials)
        #expect(callerAgent.connectedWith == [callerAgent.localCredentials!, calleeAgent.localCredentials!])
        for side in [pair.caller, pair.callee] {
            #expect(side.core.iceState == .connected, "\(side.name)")
            #expect(side.transportsBuilt == 1 && side.configurations == 2, "\(side.name)")
            // The new generation ends with its own end-of-candidates.
            #expect(side.reportedCandidates.filter { $0 == nil }.count == 2, "\(side.name): \(side.reportedCandidates)")
        }
    }

    @Test("renegotiation while the first gathering is still running: one transport, reconfigured, candidates keep flowing")
    func renegotiationWhileGathering() throws {
        let pair = CorePair()
        pair.reflexiveDelay = .milliseconds(1_000)
        try pair.change(pair.caller) { core throws(PeerConnectionError) in
            try core.addTransceiver(Transceiver(kind: .audio, direction: .sendrecv)).1
        }
        try pair.connect(for: .milliseconds(500))
        #expect(pair.caller.core.connectionState == .connected)
        #expect(pair.caller.core.gatheringState == .gathering)
        try pair.change(pair.caller) { core throws(PeerConnectionError) in
            try core.addTransceiver(Transceiver(kind: .video, direction: .sendrecv)).1
        }
        try pair.sendOffer(from: pair.caller)
        pair.run()
        #expect(pair.operationErrors.isEmpty, "\(pair.operationErrors)")
        for side in [pair.caller, pair.callee] {
            #expect(side.core.jsep.signalingState == .stable)
            #expect(side.transportsBuilt == 1 && side.configurations == 2, "\(side.name)")
            #expect(side.core.gatheringState == .complete)
            #expect(side.reportedCandidates.count == 3, "\(side.name): \(side.reportedCandidates)")
        }
        #expect(pair.callee.core.jsep.transceivers.map(\.kind) == [.audio, .video])
    }

    enum Phase: String, CaseIterable { case beforeAnything, offerApplied, answerPending, connected }

    @Test("close in each phase: closed state, every later operation refused, late ICE and DTLS events change nothing",
          arguments: Phase.allCases)
    func closeDuringEachPhase(phase: Phase) throws {
        let pair = CorePair()
        switch phase {
        case .beforeAnything: break
        case .offerApplied: try pair.setLocal(pair.caller, try pair.createOffer(pair.caller))
        case .answerPending:
            try pair.sendOffer(from: pair.caller)
            pair.run(for: .milliseconds(60))  // the callee answered; the answer is on its way
        case .connected: try pair.connect()
        }
        let side = pair.caller
        let closedNow = side.core.close(), closedAgain = side.core.close()
        #expect(closedNow && !closedAgain, "close is idempotent")
        #expect(side.core.connectionState == .closed && side.core.jsep.signalingState == .closed)
        #expect(throws: PeerConnectionError.self) { try side.core.createOffer(iceRestart: false) }
        #expect(throws: PeerConnectionError.self) { try side.core.setRemoteDescription(JSEPDescription(type: .answer, sdp: "v=0")) }
        #expect(throws: PeerConnectionError.self) { try side.core.addICECandidate(nil) }
        let late = side.core.handle(ice: .stateChanged(.connected)) + side.core.handle(ice: .gatheringComplete)
        #expect(late.isEmpty)
        pair.run()
        #expect(side.core.connectionState == .closed)
    }

    @Test("a pooled agent gathers before any description, takes its role from the first one, and reports its candidates only after setLocalDescription")
    func candidatePool() throws {
        let pair = CorePair()
        pair.perform(pair.callee.core.startCandidatePool(), at: pair.callee)
        pair.run(for: .milliseconds(100))
        #expect(pair.callee.agent?.role == .controlling)
        #expect(pair.callee.reportedCandidates.isEmpty, "held until the local description")
        try pair.connect()
        #expect(pair.operationErrors.isEmpty, "\(pair.operationErrors)")
        #expect(pair.callee.agent?.role == .controlled)
        #expect(pair.callee.reportedCandidates.count == 3 && pair.callee.reportedCandidates.last == .some(nil))
        #expect(pair.callee.core.connectionState == .connected)
    }
}

import Testing
import TernSDP

@Suite("JSEP signaling state machine (RFC 9429 §3.2, W3C)")
struct JSEPStateMachineTests {
    func offerSDP(seed: UInt64 = 50) throws -> JSEPDescription {
        var remote = TestIdentity.session(seed: seed)
        try remote.addTransceiver(Transceiver(kind: .audio))
        return try remote.createOffer()
    }

    @Test("state raw values are the W3C strings")
    func rawValues() {
        #expect(SignalingState.allCases.map(\.rawValue) == ["stable", "have-local-offer", "have-remote-offer",
                                                            "have-local-pranswer", "have-remote-pranswer", "closed"])
        #expect(SDPType.allCases.map(\.rawValue) == ["offer", "pranswer", "answer", "rollback"])
        #expect(JSEPError(.invalidState, "x").description == "InvalidStateError: x")
        #expect(JSEPError.Name.invalidAccess.rawValue == "InvalidAccessError")
        #expect(JSEPError.Name.operation.rawValue == "OperationError")
        #expect(JSEPError.Name.invalidModification.rawValue == "InvalidModificationError")
    }

    @Test("offer, pranswer, answer walk through every non-closed state")
    func pranswerPath() throws {
        var a = TestIdentity.session(seed: 1)
        var b = TestIdentity.session(seed: 2)
        try a.addTransceiver(Transceiver(kind: .audio))
        let offer = try a.createOffer()
        try a.setLocalDescription(offer)
        #expect(a.signalingState == .haveLocalOffer)
        #expect(a.pendingLocalDescription != nil && a.currentLocalDescription == nil)
        try b.setRemoteDescription(offer)
        #expect(b.signalingState == .haveRemoteOffer)
        var pranswer = try b.createAnswer()
        pranswer.type = .pranswer
        try b.setLocalDescription(pranswer)
        #expect(b.signalingState == .haveLocalPranswer)
        try a.setRemoteDescription(pranswer)
        #expect(a.signalingState == .haveRemotePranswer)
        let answer = try b.createAnswer()
        try b.setLocalDescription(answer)
        try a.setRemoteDescription(answer)
        #expect(a.signalingState == .stable && b.signalingState == .stable)
        #expect(a.currentRemoteDescription != nil && a.pendingRemoteDescription == nil)
    }

    @Test("invalid transitions throw InvalidStateError")
    func invalidTransitions() throws {
        var s = TestIdentity.session()
        try s.addTransceiver(Transceiver(kind: .audio))
        let foreignOffer = try offerSDP()
        #expect(throws: JSEPError.self) { try s.setRemoteDescription(JSEPDescription(type: .answer, sdp: foreignOffer.sdp)) }
        #expect(error(of: { try s.setRemoteDescription(JSEPDescription(type: .answer, sdp: foreignOffer.sdp)) }) == .invalidState)
        #expect(error(of: { _ = try s.createAnswer() }) == .invalidState)
        #expect(error(of: { try s.setLocalDescription(JSEPDescription(type: .rollback, sdp: "")) }) == .invalidState)
        let offer = try s.createOffer()
        try s.setLocalDescription(offer)
        #expect(error(of: { _ = try s.createAnswer() }) == .invalidState)
        #expect(error(of: { try s.setRemoteDescription(JSEPDescription(type: .pranswer, sdp: "v=0")) }) == .operation)
        var r = TestIdentity.session(seed: 9)
        try r.setRemoteDescription(foreignOffer)
        #expect(error(of: { _ = try r.createOffer() }) == .invalidState)
        #expect(error(of: { try r.setRemoteDescription(JSEPDescription(type: .answer, sdp: foreignOffer.sdp)) }) == .invalidState)
        r.close()
        #expect(r.signalingState == .closed)
        #expect(error(of: { try r.setRemoteDescription(foreignOffer) }) == .invalidState)
        #expect(error(of: { _ = try r.createAnswer() }) == .invalidState)
    }

    @Test("a modified local description throws InvalidModificationError")
    func modified() throws {
        var s = TestIdentity.session()
        try s.addTransceiver(Transceiver(kind: .audio))
        let offer = try s.createOffer()
        let tampered = JSEPDescription(type: .offer, sdp: offer.sdp.replacingOccurrences(of: "a=sendrecv", with: "a=recvonly"))
        #expect(error(of: { try s.setLocalDescription(tampered) }) == .invalidModification)
        #expect(s.signalingState == .stable)
    }

    @Test("an empty local sdp creates the description implicitly")
    func implicit() throws {
        var s = TestIdentity.session()
        try s.addTransceiver(Transceiver(kind: .video))
        try s.setLocalDescription(JSEPDescription(type: .offer, sdp: ""))
        #expect(s.signalingState == .haveLocalOffer)
        #expect(s.localDescription?.media.count == 1)
    }

    @Test("unparseable remote SDP is an OperationError naming the line")
    func unparseable() throws {
        var s = TestIdentity.session()
        let bad = "v=0\r\no=- 1 1 IN IP4 0.0.0.0\r\ns=-\r\nt=0 0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=rtpmap:abc opus/48000\r\n"
        do {
            try s.setRemoteDescription(JSEPDescription(type: .offer, sdp: bad))
            Issue.record("expected an error")
        } catch {
            #expect(error.name == .operation)
            #expect(error.message.contains("line 6: `a=rtpmap:abc opus/48000`: payload type is not a number"))
        }
        #expect(s.signalingState == .stable)
    }

    @Test("active sections without ICE credentials or fingerprint are InvalidAccessError")
    func missingTransport() throws {
        let offer = try offerSDP().sdp
        var s = TestIdentity.session()
        let noUfrag = offer.split(separator: "\r\n").filter { !$0.hasPrefix("a=ice-ufrag") }.joined(separator: "\r\n") + "\r\n"
        #expect(error(of: { try s.setRemoteDescription(JSEPDescription(type: .offer, sdp: noUfrag)) }) == .invalidAccess)
        let noFingerprint = offer.split(separator: "\r\n").filter { !$0.hasPrefix("a=fingerprint") }.joined(separator: "\r\n") + "\r\n"
        #expect(error(of: { try s.setRemoteDescription(JSEPDescription(type: .offer, sdp: noFingerprint)) }) == .invalidAccess)
        #expect(s.signalingState == .stable)
    }

    @Test("a remote offer during our own offer rolls ours back (W3C implicit rollback)")
    func glare() throws {
        var s = TestIdentity.session()
        try s.addTransceiver(Transceiver(kind: .video))
        try s.setLocalDescription(try s.createOffer())
        try s.setRemoteDescription(try offerSDP())
        #expect(s.signalingState == .haveRemoteOffer)
        #expect(s.pendingLocalDescription == nil)
        // The remote audio section made a new transceiver; our video one is unassociated again.
        #expect(s.transceivers.map(\.kind) == [.video, .audio])
        #expect(s.transceivers[0].mid == nil)
        let answer = try SDPParser().parse(try s.createAnswer().sdp)
        #expect(answer.media.map(\.kind) == ["audio"])
    }

    @Test("rollback of a local offer unassociates mids and keeps transceivers")
    func rollbackLocal() throws {
        var s = TestIdentity.session()
        try s.addTransceiver(Transceiver(kind: .audio))
        try s.setLocalDescription(try s.createOffer())
        #expect(s.transceivers[0].mid == "0")
        try s.setLocalDescription(JSEPDescription(type: .rollback, sdp: ""))
        #expect(s.signalingState == .stable)
        #expect(s.transceivers.count == 1)
        #expect(s.transceivers[0].mid == nil)
        #expect(s.pendingLocalDescription == nil)
    }

    @Test("rollback of a remote offer removes the transceivers it created")
    func rollbackRemote() throws {
        var s = TestIdentity.session()
        try s.setRemoteDescription(try offerSDP())
        #expect(s.transceivers.count == 1)
        #expect(s.transceivers[0].createdByRemote)
        try s.setRemoteDescription(JSEPDescription(type: .rollback, sdp: ""))
        #expect(s.signalingState == .stable)
        #expect(s.transceivers.isEmpty)
        #expect(s.remoteDescription == nil)
        // The session can then make its own offer.
        try s.addTransceiver(Transceiver(kind: .video))
        try s.setLocalDescription(try s.createOffer())
        #expect(s.localDescription?.media.map(\.kind) == ["video"])
    }

    @Test("m= sections of an answer must match the offer")
    func answerMismatch() throws {
        var a = TestIdentity.session(seed: 1)
        try a.addTransceiver(Transceiver(kind: .audio))
        try a.setLocalDescription(try a.createOffer())
        let foreign = try offerSDP(seed: 70).sdp.replacingOccurrences(of: "a=mid:0", with: "a=mid:x")
        #expect(error(of: { try a.setRemoteDescription(JSEPDescription(type: .answer, sdp: foreign)) }) == .invalidAccess)
        #expect(a.signalingState == .haveLocalOffer)
    }

    @Test("trickled candidates reach the negotiated transport; errors are W3C-named")
    func trickle() throws {
        var a = TestIdentity.session(seed: 1)
        var b = TestIdentity.session(seed: 2)
        try a.addTransceiver(Transceiver(kind: .audio))
        #expect(error(of: { try a.addRemoteCandidate(ICECandidateInit(candidate: "", sdpMid: "0")) }) == .invalidState)
        try Exchange.run(offerer: &a, answerer: &b, beforeAnswer: Exchange.sendrecvAll)
        let host = try ICECandidate(parsing: "candidate:1 1 udp 2122260223 192.0.2.10 50000 typ host generation 0")
        let bInit = b.addLocalCandidate(host)
        #expect(bInit.sdpMid == "0" && bInit.sdpMLineIndex == 0)
        try a.addRemoteCandidate(bInit)
        try a.addRemoteCandidate(ICECandidateInit(candidate: "a=candidate:2 1 udp 1 192.0.2.11 50001 typ host", sdpMLineIndex: 0))
        try a.addRemoteCandidate(ICECandidateInit(candidate: "", sdpMid: "0"))
        let transport = try #require(a.negotiated?.transport)
        #expect(transport.remoteCandidates.count == 2)
        #expect(transport.remoteCandidates[0] == host)
        #expect(transport.remoteEndOfCandidates)
        #expect(error(of: { try a.addRemoteCandidate(ICECandidateInit(candidate: "candidate:x", sdpMid: "0")) }) == .operation)
        #expect(error(of: { try a.addRemoteCandidate(ICECandidateInit(candidate: host.candidateString, sdpMid: "9")) }) == .operation)
        #expect(error(of: { try a.addRemoteCandidate(ICECandidateInit(candidate: host.candidateString, sdpMid: "0",
                                                                      usernameFragment: "nope")) }) == .operation)
    }

    @Test("a peer trickling thousands of candidates into one section: the first 256 kept, the rest refused with OperationError")
    func trickledCandidatesAreCappedPerSection() throws {
        var a = TestIdentity.session(seed: 1)
        var b = TestIdentity.session(seed: 2)
        try a.addTransceiver(Transceiver(kind: .audio))
        try Exchange.run(offerer: &a, answerer: &b, beforeAnswer: Exchange.sendrecvAll)
        let limit = JSEPSession.maximumRemoteCandidatesPerSection
        for index in 0..<limit {
            try a.addRemoteCandidate(ICECandidateInit(candidate: "candidate:\(index) 1 udp 1 192.0.2.10 \(10_000 + index) typ host", sdpMid: "0"))
        }
        #expect(error(of: { try a.addRemoteCandidate(ICECandidateInit(candidate: "candidate:x 1 udp 1 192.0.2.11 9 typ host", sdpMid: "0")) })
                == .operation)
        try a.addRemoteCandidate(ICECandidateInit(candidate: "", sdpMid: "0"))   // end-of-candidates still accepted
        let transport = try #require(a.negotiated?.transport)
        #expect(transport.remoteCandidates.count == limit && transport.remoteEndOfCandidates)
    }

    private func error(of body: () throws -> Void) -> JSEPError.Name? {
        do {
            try body()
            return nil
        } catch {
            return (error as? JSEPError)?.name
        }
    }
}

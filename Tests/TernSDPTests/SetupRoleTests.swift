import Testing
import TernCore
import TernSDP

@Suite("DTLS roles from a=setup (RFC 8842 §5)")
struct SetupRoleTests {
    @Test("the answer's setup and our DTLS role for each offered setup", arguments: [
        (SetupRole.actpass, SetupRole.active, SetupRole.active, DTLSRole.client),
        (.actpass, .passive, .passive, .server),
        (.active, .active, .passive, .server),
        (.passive, .active, .active, .client),
    ])
    func answerSetup(offered: SetupRole, configured: SetupRole, answered: SetupRole, role: DTLSRole) throws {
        var remote = TestIdentity.session(seed: 8)
        try remote.addTransceiver(Transceiver(kind: .audio))
        let offer = try remote.createOffer().sdp.replacingOccurrences(of: "a=setup:actpass", with: "a=setup:\(offered.rawValue)")
        var configuration = TestIdentity.configuration
        configuration.answerSetup = configured
        var s = TestIdentity.session(seed: 9, configuration: configuration)
        try s.setRemoteDescription(JSEPDescription(type: .offer, sdp: offer))
        let answer = try s.createAnswer()
        try s.setLocalDescription(answer)
        #expect(try SDPParser().parse(answer.sdp).media[0].setup == answered)
        #expect(s.negotiated?.transport?.dtlsRole == role)
        #expect(s.negotiated?.transport?.remoteSetup == offered)
    }

    @Test("mapping between setup values and roles")
    func mapping() {
        #expect(DTLSRole(remoteSetup: .active) == .server)
        #expect(DTLSRole(remoteSetup: .passive) == .client)
        #expect(DTLSRole(remoteSetup: .actpass) == nil)
        #expect(DTLSRole(remoteSetup: .holdconn) == nil)
        #expect(DTLSRole.client.setup == .active)
        #expect(DTLSRole.server.setup == .passive)
    }

    @Test("local candidates go into the first bundled section with end-of-candidates")
    func localCandidates() throws {
        var s = TestIdentity.session(seed: 10)
        try s.addTransceiver(Transceiver(kind: .audio))
        try s.addDataChannel()
        let host = try ICECandidate(parsing: "candidate:1 1 udp 2122260223 192.0.2.10 50000 typ host")
        s.addLocalCandidate(host)
        s.setLocalGatheringComplete()
        let offer = try SDPParser().parse(try s.createOffer().sdp)
        #expect(offer.media[0].candidates == [host])
        #expect(offer.media[0].endOfCandidates)
        #expect(offer.media[1].candidates.isEmpty)
    }

    @Test("candidates gathered after setLocalDescription are added to the applied description's first bundled section (W3C localDescription)")
    func candidatesGatheredLaterJoinTheAppliedDescription() throws {
        var s = TestIdentity.session(seed: 11)
        try s.addTransceiver(Transceiver(kind: .audio))
        try s.addDataChannel()
        let offer = try s.createOffer()
        try s.setLocalDescription(offer)
        let applied = try SDPParser().parse(offer.sdp)
        #expect(s.addingLocalCandidates(to: applied) == nil, "nothing gathered yet: the applied text stands")

        let host = try ICECandidate(parsing: "candidate:1 1 udp 2122260223 192.0.2.10 50000 typ host")
        s.addLocalCandidate(host)
        let gathering = try #require(s.addingLocalCandidates(to: applied))
        #expect(gathering.media[0].candidates == [host] && !gathering.media[0].endOfCandidates)
        #expect(gathering.media[1].candidates.isEmpty, "bundled sections carry no candidates of their own")

        s.setLocalGatheringComplete()
        let complete = try #require(s.addingLocalCandidates(to: applied))
        #expect(complete.media[0].candidates == [host] && complete.media[0].endOfCandidates)
        // Text round trip: what W3C localDescription hands to signalling parses back the same.
        #expect(try SDPParser().parse(complete.text) == complete)
        // Already there: nothing to add.
        #expect(s.addingLocalCandidates(to: complete) == nil)
    }

    @Test("a description of another ICE generation gets no candidates of this one")
    func candidatesOfAnotherGenerationAreNotAdded() throws {
        var s = TestIdentity.session(seed: 12)
        try s.addDataChannel()
        let first = try s.createOffer()
        try s.setLocalDescription(first)
        let restarted = try s.createOffer(iceRestart: true)
        try s.setLocalDescription(restarted)
        s.addLocalCandidate(try ICECandidate(parsing: "candidate:1 1 udp 2122260223 192.0.2.10 50000 typ host"))
        #expect(s.addingLocalCandidates(to: try SDPParser().parse(first.sdp)) == nil)
        #expect(s.addingLocalCandidates(to: try SDPParser().parse(restarted.sdp)) != nil)
    }
}

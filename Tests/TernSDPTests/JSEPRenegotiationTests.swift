import Testing
import TernSDP

@Suite("JSEP renegotiation scenarios (RFC 9429 §5.2.2, §5.3.2)")
struct JSEPRenegotiationTests {
    func audioCall() throws -> (JSEPSession, JSEPSession) {
        var a = TestIdentity.session(seed: 11)
        var b = TestIdentity.session(seed: 22)
        try a.addTransceiver(Transceiver(kind: .audio, sender: SenderParameters(ssrc: 1111, cname: "a", streamId: "s", trackId: "t")))
        try Exchange.run(offerer: &a, answerer: &b, beforeAnswer: Exchange.sendrecvAll)
        return (a, b)
    }

    @Test("the negotiated result carries what the peer connection needs")
    func negotiatedValues() throws {
        var (a, b) = try audioCall()
        try a.addDataChannel()
        try Exchange.run(offerer: &a, answerer: &b)
        let na = try #require(a.negotiated)
        let nb = try #require(b.negotiated)
        #expect(na.media.map(\.mid) == ["0"])
        #expect(na.media[0].codecs == [RTPCodec.opus()])
        #expect(na.media[0].direction == .sendrecv)
        #expect(na.media[0].headerExtensions.map(\.uri).contains("urn:ietf:params:rtp-hdrext:sdes:mid"))
        #expect(nb.media[0].remoteSSRCs == [1111])
        #expect(nb.media[0].remoteMsid == MediaStreamId(streamId: "s", trackId: "t"))
        #expect(na.bundleMids == ["0", "1"])
        let data = try #require(na.dataChannel)
        #expect(data.mid == "1" && data.remoteSCTPPort == 5000 && data.localSCTPPort == 5000)
        #expect(data.remoteMaxMessageSize == 262_144)
        let ta = try #require(na.transport)
        let tb = try #require(nb.transport)
        #expect(ta.remoteCredentials == b.localCredentials)
        #expect(tb.remoteCredentials == a.localCredentials)
        #expect(ta.remoteFingerprints == [TestIdentity.fingerprint])
        #expect(ta.remoteSetup == .active && ta.dtlsRole == .server)
        #expect(tb.remoteSetup == .actpass && tb.dtlsRole == .client)
        #expect(ta.remoteICEOptions == ["trickle"])
    }

    @Test("video added to an audio call: order, mids, transport and audio codecs unchanged")
    func addVideo() throws {
        var (a, b) = try audioCall()
        let before = try #require(a.negotiated)
        try a.addTransceiver(Transceiver(kind: .video))
        let (offer, answer) = try Exchange.run(offerer: &a, answerer: &b, beforeAnswer: Exchange.sendrecvAll)
        #expect(offer.media.map(\.kind) == ["audio", "video"])
        #expect(offer.media.map(\.mid) == ["0", "1"])
        #expect(answer.bundleGroups.first?.mids == ["0", "1"])
        let after = try #require(a.negotiated)
        #expect(after.transport?.remoteCredentials == before.transport?.remoteCredentials)
        #expect(after.transport?.dtlsRole == before.transport?.dtlsRole)
        #expect(after.media[0].codecs == before.media[0].codecs)
        #expect(after.media[1].codecs.map(\.name) == ["VP8", "rtx"])
        #expect(b.transceivers.map(\.kind) == [.audio, .video])
    }

    @Test("the answerer re-offers: payload types and DTLS roles are kept")
    func reverseRoles() throws {
        var a = TestIdentity.session(seed: 1)
        var b = TestIdentity.session(seed: 2)
        try a.addTransceiver(Transceiver(kind: .video, codecPreferences: [.vp8(payloadType: 120), .rtx(payloadType: 121, apt: 120)]))
        try Exchange.run(offerer: &a, answerer: &b, beforeAnswer: Exchange.sendrecvAll)
        let roleA = try #require(a.negotiated?.transport?.dtlsRole)
        let roleB = try #require(b.negotiated?.transport?.dtlsRole)
        #expect(roleA != roleB)
        let (offer, answer) = try Exchange.run(offerer: &b, answerer: &a)
        #expect(offer.media[0].mediaLine.payloadTypes == [120, 121])
        #expect(answer.media[0].setup == roleA.setup)
        #expect(a.negotiated?.transport?.dtlsRole == roleA)
        #expect(b.negotiated?.transport?.dtlsRole == roleB)
        #expect(a.negotiated?.media[0].codecs.map(\.payloadType) == [120, 121])
    }

    @Test("stopping a transceiver: port 0, mid kept, out of BUNDLE; a later transceiver gets a new mid")
    func stop() throws {
        var (a, b) = try audioCall()
        try a.addTransceiver(Transceiver(kind: .video))
        try Exchange.run(offerer: &a, answerer: &b, beforeAnswer: Exchange.sendrecvAll)
        try a.stopTransceiver(at: 0)
        let (offer, answer) = try Exchange.run(offerer: &a, answerer: &b)
        #expect(offer.media[0].isRejected && offer.media[0].mid == "0")
        #expect(answer.media[0].isRejected && answer.media[0].mid == "0")
        #expect(offer.bundleGroups.first?.mids == ["1"])
        #expect(a.transceivers[0].isStopped && b.transceivers[0].isStopped)
        #expect(a.negotiated?.media[0].isRejected == true)
        #expect(a.negotiated?.media[1].isRejected == false)
        try a.addTransceiver(Transceiver(kind: .audio))
        let (third, _) = try Exchange.run(offerer: &a, answerer: &b, beforeAnswer: Exchange.sendrecvAll)
        #expect(third.media.map(\.mid) == ["0", "1", "2"])
        #expect(third.media.map(\.mediaLine.port) == [0, 9, 9])
        #expect(b.negotiated?.media.map(\.isRejected) == [true, false, false])
    }

    @Test("hold and resume by direction", arguments: [
        (RTPDirection.sendonly, RTPDirection.recvonly),
        (.inactive, .inactive),
        (.recvonly, .sendonly),
        (.sendrecv, .sendrecv),
    ])
    func hold(local: RTPDirection, answered: RTPDirection) throws {
        var (a, b) = try audioCall()
        try a.setDirection(local, forTransceiverAt: 0)
        let (offer, answer) = try Exchange.run(offerer: &a, answerer: &b)
        #expect(offer.media[0].direction == local)
        #expect(answer.media[0].direction == answered)
        #expect(a.transceivers[0].currentDirection == local)
        #expect(b.negotiated?.media[0].direction == answered)
        try a.setDirection(.sendrecv, forTransceiverAt: 0)
        try Exchange.run(offerer: &a, answerer: &b)
        #expect(a.transceivers[0].currentDirection == .sendrecv)
    }

    @Test("ICE restart changes ufrag/pwd on both sides and nothing else")
    func iceRestart() throws {
        var (a, b) = try audioCall()
        let credsA = a.localCredentials
        let credsB = b.localCredentials
        let before = try #require(a.negotiated)
        a.addLocalCandidate(try ICECandidate(parsing: "candidate:1 1 udp 2122260223 192.0.2.10 50000 typ host"))
        a.setLocalGatheringComplete()
        let (offer, answer) = try Exchange.run(offerer: &a, answerer: &b, iceRestart: true)
        #expect(offer.media[0].candidates.isEmpty && !offer.media[0].endOfCandidates, "old-generation candidates are dropped")
        #expect(a.localCandidates.isEmpty && !a.localGatheringComplete)
        #expect(offer.media[0].iceUfrag != credsA.ufrag && offer.media[0].icePwd != credsA.pwd)
        #expect(answer.media[0].iceUfrag != credsB.ufrag)
        #expect(a.localCredentials != credsA && b.localCredentials != credsB)
        let after = try #require(a.negotiated)
        #expect(after.transport?.remoteCredentials == b.localCredentials)
        #expect(after.transport?.remoteFingerprints == before.transport?.remoteFingerprints)
        #expect(after.transport?.dtlsRole == before.transport?.dtlsRole)
        #expect(after.media == before.media)
        // A later offer without restart keeps the new credentials.
        let (third, _) = try Exchange.run(offerer: &a, answerer: &b)
        #expect(third.media[0].iceUfrag == a.localCredentials.ufrag)
        // restartICE() has the same effect as createOffer(iceRestart:).
        a.restartICE()
        let (fourth, _) = try Exchange.run(offerer: &a, answerer: &b)
        #expect(fourth.media[0].iceUfrag != third.media[0].iceUfrag)
    }

    @Test("a remote re-offer that reorders m= lines is InvalidAccessError")
    func reorder() throws {
        var (a, b) = try audioCall()
        try a.addTransceiver(Transceiver(kind: .video))
        try Exchange.run(offerer: &a, answerer: &b)
        let offer = try a.createOffer()
        var parsed = try SDPParser().parse(offer.sdp)
        parsed.media.swapAt(0, 1)
        do {
            try b.setRemoteDescription(JSEPDescription(type: .offer, sdp: parsed.text))
            Issue.record("expected InvalidAccessError")
        } catch {
            #expect(error.name == .invalidAccess)
        }
        #expect(b.signalingState == .stable)
    }

    @Test("a data channel section is offered, answered and negotiated")
    func dataChannel() throws {
        var a = TestIdentity.session(seed: 5)
        var b = TestIdentity.session(seed: 6)
        try a.addDataChannel()
        let (offer, answer) = try Exchange.run(offerer: &a, answerer: &b)
        #expect(offer.media[0].mediaLine == MediaLine(media: "application", port: 9, proto: "UDP/DTLS/SCTP", formats: ["webrtc-datachannel"]))
        #expect(offer.media[0].sctpPort == 5000 && offer.media[0].maxMessageSize == 262_144)
        #expect(!answer.media[0].isRejected)
        #expect(b.negotiated?.dataChannel?.remoteSCTPPort == 5000)
        #expect(b.negotiated?.media.isEmpty == true)
    }

    @Test("max-message-size defaults to 65536 when the remote omits it (RFC 8841 §6)")
    func maxMessageSizeDefault() throws {
        var a = TestIdentity.session(seed: 5)
        var b = TestIdentity.session(seed: 6)
        try a.addDataChannel()
        let offer = try a.createOffer()
        try a.setLocalDescription(offer)
        try b.setRemoteDescription(offer)
        let answer = try b.createAnswer()
        try b.setLocalDescription(answer)
        let stripped = answer.sdp.replacingOccurrences(of: "a=max-message-size:262144\r\n", with: "")
        try a.setRemoteDescription(JSEPDescription(type: .answer, sdp: stripped))
        #expect(a.negotiated?.dataChannel?.remoteMaxMessageSize == 65536)
    }

    @Test("a=x-tern-sctp-max-packet is written when configured and read from the peer, absent otherwise")
    func sctpMaxPacketIsAdvertisedAndRead() throws {
        var tern = TestIdentity.configuration
        tern.sctpMaxPacket = 16_384
        var a = TestIdentity.session(seed: 5, configuration: tern)
        var b = TestIdentity.session(seed: 6)  // a peer that does not advertise it
        try a.addDataChannel()
        let offer = try a.createOffer()
        #expect(offer.sdp.contains("a=x-tern-sctp-max-packet:16384\r\n"))
        try a.setLocalDescription(offer)
        try b.setRemoteDescription(offer)
        let answer = try b.createAnswer()
        #expect(!answer.sdp.contains("x-tern-sctp-max-packet"))
        try b.setLocalDescription(answer)
        try a.setRemoteDescription(answer)
        #expect(b.negotiated?.dataChannel?.remoteMaxPacket == 16_384)
        #expect(a.negotiated?.dataChannel?.remoteMaxPacket == nil)
    }
}

import Testing
import TernSDP

/// Replays the renegotiation chains captured from one Chromium / aiortc connection against one JSEPSession
/// acting as the answerer.
@Suite("Renegotiation chains captured from real offerers")
struct RenegotiationReplayTests {
    func answer(_ session: inout JSEPSession, _ fixture: String) throws -> SessionDescription {
        let offer = try #require(FixtureLoader.named(fixture), "fixture \(fixture)")
        try session.setRemoteDescription(JSEPDescription(type: .offer, sdp: offer))
        for index in session.transceivers.indices where !session.transceivers[index].isStopped {
            try session.setDirection(.sendrecv, forTransceiverAt: index)
        }
        let answer = try session.createAnswer()
        try session.setLocalDescription(answer)
        let parsed = try SDPParser().parse(answer.sdp)
        try AnswerChecks.assertValid(answer: parsed, for: try SDPParser().parse(offer))
        return parsed
    }

    @Test("Chromium: audio, add video, hold, ICE restart, stop video, recycle the stopped m-line")
    func chromiumChain() throws {
        var s = TestIdentity.session(seed: 33)
        let initial = try answer(&s, "chromium-reneg-initial-offer.sdp")
        #expect(initial.media.map(\.kind) == ["audio"])
        let role = try #require(s.negotiated?.transport?.dtlsRole)
        let creds = s.localCredentials

        let added = try answer(&s, "chromium-reneg-add-video-offer.sdp")
        #expect(added.media.map(\.kind) == ["audio", "video"])
        #expect(added.media.map(\.isRejected) == [false, false])
        #expect(added.media[1].iceUfrag == creds.ufrag)
        #expect(s.negotiated?.transport?.dtlsRole == role)

        let hold = try answer(&s, "chromium-reneg-hold-offer.sdp")
        #expect(hold.media[0].direction == .recvonly)
        #expect(s.negotiated?.media[0].direction == .recvonly)

        let remoteBefore = try #require(s.negotiated?.transport?.remoteCredentials)
        let codecsBefore = s.negotiated?.media.map(\.codecs)
        let restarted = try answer(&s, "chromium-reneg-ice-restart-offer.sdp")
        #expect(restarted.media[0].iceUfrag != creds.ufrag)
        #expect(s.localCredentials != creds)
        #expect(s.negotiated?.transport?.remoteCredentials != remoteBefore)
        #expect(s.negotiated?.transport?.dtlsRole == role)
        #expect(s.negotiated?.media.map(\.codecs) == codecsBefore)

        let stopped = try answer(&s, "chromium-reneg-stop-video-offer.sdp")
        #expect(stopped.media.map(\.isRejected) == [false, true])
        #expect(stopped.media[1].mid == "1")
        #expect(s.transceivers[1].isStopped)
        #expect(s.negotiated?.bundleMids == ["0"])

        // Chromium reuses the stopped video m-line for a new audio transceiver with mid 2.
        let recycled = try answer(&s, "chromium-reneg-recycle-offer.sdp")
        #expect(recycled.media.map(\.mid) == ["0", "2"])
        #expect(recycled.media.map(\.isRejected) == [false, false])
        #expect(s.negotiated?.media.map(\.kind) == [.audio, .audio])
        #expect(s.negotiated?.bundleMids == ["0", "2"])
        #expect(s.transceivers[1].isStopped)
        #expect(s.transceivers.count == 3)
    }

    @Test("Firefox: audio, add video, hold, ICE restart, stop video (stopped section without ICE attributes)")
    func firefoxChain() throws {
        var s = TestIdentity.session(seed: 55)
        _ = try answer(&s, "firefox-reneg-initial-offer.sdp")
        let added = try answer(&s, "firefox-reneg-add-video-offer.sdp")
        #expect(added.media.map(\.isRejected) == [false, false])
        let hold = try answer(&s, "firefox-reneg-hold-offer.sdp")
        #expect(hold.media[0].direction == .recvonly)
        let creds = s.localCredentials
        let restarted = try answer(&s, "firefox-reneg-ice-restart-offer.sdp")
        #expect(restarted.media[0].iceUfrag != creds.ufrag)
        // Firefox writes the stopped video section with no ICE attributes and outside the BUNDLE group.
        let stopped = try answer(&s, "firefox-reneg-stop-video-offer.sdp")
        #expect(stopped.media.map(\.isRejected) == [false, true])
        #expect(stopped.media[1].mid == "1")
        #expect(s.negotiated?.bundleMids == ["0"])
        #expect(s.negotiated?.media.map(\.isRejected) == [false, true])
    }

    @Test("aiortc: audio, then video added")
    func aiortcChain() throws {
        var s = TestIdentity.session(seed: 44)
        _ = try answer(&s, "aiortc-reneg-initial-offer.sdp")
        let added = try answer(&s, "aiortc-reneg-add-video-offer.sdp")
        #expect(added.media.map(\.kind) == ["audio", "video"])
        #expect(s.negotiated?.media.map(\.isRejected) == [false, false])
        #expect(s.negotiated?.media[1].codecs.first?.name == "VP8")
    }
}

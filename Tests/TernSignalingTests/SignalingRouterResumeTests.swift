import Testing
import TernCore
import TernSignaling

@Suite("Router: calls held through a dropped connection and resumed")
struct SignalingRouterResumeTests {
    static let offer = SignalingMessage.description(callId: "c1", description: .init(type: .offer, sdp: "v=0 offer"))
    static let candidate = SignalingMessage.candidate(callId: "c1", candidate: .init(
        candidate: "candidate:1 1 udp 1 127.0.0.1 9 typ host", sdpMid: "0", sdpMLineIndex: 0))

    /// alice on 1 calls bob on 2, who answers.
    static func answered(limits: SignalingLimits = SignalingLimits()) -> RouterHarness {
        var h = RouterHarness(limits: limits)
        h.register(1, "alice")
        h.register(2, "bob")
        _ = h.send(1, .invite(Invite(callId: "c1", to: "bob", media: MediaOptions(audio: true))))
        _ = h.send(2, .accept(callId: "c1"))
        return h
    }

    @Test("a dropped answerer's call stays up; what alice sends waits and follows resumed on bob's new connection")
    func answererResumes() {
        var h = Self.answered()
        #expect(h.drop(2).isEmpty)
        #expect(h.router.callCount == 1)
        #expect(h.send(1, Self.offer).isEmpty)
        #expect(h.send(1, Self.candidate).isEmpty)
        _ = h.advance(ms: 5_000)
        h.register(3, "bob")
        #expect(h.send(3, .resume(callIds: ["c1"])) == [
            send(3, .resumed(calls: [ResumedCall(callId: "c1", state: .answered)])),
            send(3, Self.offer), send(3, Self.candidate),
        ])
        // The call now runs between 1 and 3, both ways, and ends normally.
        #expect(h.send(1, Self.candidate) == [send(3, Self.candidate)])
        #expect(h.send(3, .hangup(callId: "c1")) == [send(1, .hangup(callId: "c1"))])
        #expect(h.router.callCount == 0)
        #expect(h.router.nextTimeout == nil)
    }

    @Test("a dropped caller of a ringing call resumes it and gets the accept that came meanwhile")
    func ringingCallerResumes() {
        var h = RouterHarness()
        h.register(1, "alice")
        h.register(2, "bob")
        _ = h.send(1, .invite(Invite(callId: "c1", to: "bob", media: MediaOptions(audio: true))))
        #expect(h.drop(1).isEmpty)
        #expect(h.send(2, .accept(callId: "c1")).isEmpty)
        h.register(4, "alice")
        #expect(h.send(4, .resume(callIds: ["c1"])) == [
            send(4, .resumed(calls: [ResumedCall(callId: "c1", state: .answered)])), send(4, .accept(callId: "c1")),
        ])
    }

    @Test("no resume within the window: the call ends as a close would, and a late resume gets callGone")
    func windowPasses() {
        var h = Self.answered()
        _ = h.drop(2)
        #expect(h.advance(ms: 29_999).isEmpty)
        #expect(h.advance(ms: 1) == [send(1, .hangup(callId: "c1"))])
        #expect(h.router.callCount == 0)
        h.register(3, "bob")
        #expect(errorCodes(h.send(3, .resume(callIds: ["c1"])), to: 3) == [.callGone])
    }

    @Test("a call the other side hung up while away is gone: callGone, then an empty resumed, nothing replayed")
    func endedWhileAway() {
        var h = Self.answered()
        _ = h.drop(2)
        #expect(h.send(1, .hangup(callId: "c1")).isEmpty)
        #expect(h.router.callCount == 0)
        h.register(3, "bob")
        let actions = h.send(3, .resume(callIds: ["c1"]))
        #expect(errorCodes(actions, to: 3) == [.callGone])
        #expect(actions.last == send(3, .resumed(calls: [])))
    }

    @Test("another user cannot take the call over")
    func otherUserRefused() {
        var h = Self.answered()
        _ = h.drop(2)
        h.register(3, "mallory")
        #expect(errorCodes(h.send(3, .resume(callIds: ["c1"])), to: 3) == [.callGone])
        #expect(h.send(1, Self.candidate).isEmpty)  // still held for bob
    }

    @Test("a resume over a connection the server still thinks open takes the call over and tells the old one")
    func halfOpenTakeover() {
        var h = Self.answered()
        h.register(3, "bob")
        #expect(h.send(3, .resume(callIds: ["c1"])) == [
            send(2, .answeredElsewhere(callId: "c1")),
            send(3, .resumed(calls: [ResumedCall(callId: "c1", state: .answered)])),
        ])
        #expect(h.send(1, Self.candidate) == [send(3, Self.candidate)])
        #expect(errorCodes(h.send(2, Self.candidate), to: 2) == [.notInCall])
    }

    @Test("one held message more than maxHeldMessages ends the call for the other side at once")
    func heldMessagesBounded() {
        var limits = SignalingLimits()
        limits.maxHeldMessages = 3
        var h = Self.answered(limits: limits)
        _ = h.drop(2)
        for _ in 0..<3 { #expect(h.send(1, Self.candidate).isEmpty) }
        #expect(h.send(1, Self.candidate) == [send(1, .hangup(callId: "c1"))])
        #expect(h.router.callCount == 0)
        #expect(h.router.nextTimeout == nil)
    }

    @Test("a close (not a drop) still ends the calls at once; resumeWindowMs 0 makes a drop a close")
    func closeIsNotHeld() {
        var h = Self.answered()
        #expect(h.close(2) == [send(1, .hangup(callId: "c1"))])
        var limits = SignalingLimits()
        limits.resumeWindowMs = 0
        var g = Self.answered(limits: limits)
        #expect(g.drop(2) == [send(1, .hangup(callId: "c1"))])
    }

    @Test("a ringing device that drops counts as unavailable, as on a close")
    func ringingDeviceDrop() {
        var h = RouterHarness()
        h.register(1, "alice")
        h.register(2, "bob")
        _ = h.send(1, .invite(Invite(callId: "c1", to: "bob", media: MediaOptions(audio: true))))
        #expect(h.drop(2) == [send(1, .reject(callId: "c1", reason: .unavailable))])
    }

    @Test("resume is refused before register and with too many or malformed ids")
    func resumeValidated() {
        var h = Self.answered()
        #expect(errorCodes(h.send(9, .resume(callIds: ["c1"])), to: 9) == [.notRegistered])
        h.register(3, "bob")
        #expect(errorCodes(h.send(3, .resume(callIds: (0..<17).map { "c\($0)" })), to: 3) == [.invalidMessage])
        #expect(errorCodes(h.send(3, .resume(callIds: [""])), to: 3) == [.invalidMessage])
    }
}

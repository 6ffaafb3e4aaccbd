import Testing
import TernCore
import TernSignaling

@Suite("Router: one-to-one calls")
struct SignalingRouterCallTests {
    /// alice on 1, bob on 2.
    static func pair() -> RouterHarness {
        var h = RouterHarness()
        h.register(1, "alice")
        h.register(2, "bob")
        return h
    }

    static let invite = Invite(callId: "c1", to: "bob", media: MediaOptions(audio: true, video: true, data: true),
                               attachedData: [AttachedData(dataName: "k", dataValue: "v")], timeoutMs: 30000)

    static var delivered: Invite {
        var invite = Self.invite
        invite.from = "alice"
        invite.rejectPolicy = .all
        return invite
    }

    @Test("invite → ringing → accept → description and candidates relayed → hangup")
    func fullCall() {
        var h = Self.pair()
        #expect(h.send(1, .invite(Self.invite)) == [send(2, .invite(Self.delivered))])
        #expect(h.send(2, .ringing(callId: "c1")) == [send(1, .ringing(callId: "c1"))])
        #expect(h.send(2, .accept(callId: "c1")) == [send(1, .accept(callId: "c1"))])
        let offer = SignalingMessage.description(callId: "c1", description: .init(type: .offer, sdp: "v=0 offer"))
        let answer = SignalingMessage.description(callId: "c1", description: .init(type: .answer, sdp: "v=0 answer"))
        #expect(h.send(1, offer) == [send(2, offer)])
        #expect(h.send(2, answer) == [send(1, answer)])
        let candidate = SignalingMessage.candidate(callId: "c1", candidate: .init(
            candidate: "candidate:1 1 udp 1 127.0.0.1 9 typ host", sdpMid: "0", sdpMLineIndex: 0))
        #expect(h.send(2, candidate) == [send(1, candidate)])
        #expect(h.send(1, .candidate(callId: "c1", candidate: nil)) == [send(2, .candidate(callId: "c1", candidate: nil))])
        #expect(h.send(2, .hangup(callId: "c1")) == [send(1, .hangup(callId: "c1"))])
        #expect(h.router.callCount == 0)
        #expect(errorCodes(h.send(1, offer), to: 1) == [.notInCall])
    }

    @Test("the server sets from to the registered user, whatever the caller wrote")
    func fromIsForced() {
        var h = Self.pair()
        var forged = Self.invite
        forged.from = "mallory"
        #expect(h.send(1, .invite(forged)) == [send(2, .invite(Self.delivered))])
    }

    @Test("reject declined and reject busy reach the caller and end the call", arguments: [RejectReason.declined, .busy])
    func reject(reason: RejectReason) {
        var h = Self.pair()
        _ = h.send(1, .invite(Self.invite))
        #expect(h.send(2, .reject(callId: "c1", reason: reason)) == [send(1, .reject(callId: "c1", reason: reason))])
        #expect(h.router.callCount == 0)
    }

    @Test("cancel before an answer reaches the ringing device")
    func cancel() {
        var h = Self.pair()
        _ = h.send(1, .invite(Self.invite))
        #expect(h.send(1, .cancel(callId: "c1")) == [send(2, .cancel(callId: "c1"))])
        #expect(errorCodes(h.send(2, .accept(callId: "c1")), to: 2) == [.notInCall])
    }

    @Test("an unanswered call times out at timeoutMs, for both sides, and not before")
    func timeout() {
        var h = Self.pair()
        var invite = Self.invite
        invite.timeoutMs = 5000
        _ = h.send(1, .invite(invite))
        #expect(h.router.nextTimeout == h.now + Duration.milliseconds(5000))
        #expect(h.advance(ms: 4999) == [])
        #expect(h.advance(ms: 1) == [send(1, .timeout(callId: "c1")), send(2, .timeout(callId: "c1"))])
        #expect(h.router.nextTimeout == nil)
        #expect(errorCodes(h.send(2, .accept(callId: "c1")), to: 2) == [.notInCall])
    }

    @Test("an answered call does not time out")
    func answeredNoTimeout() {
        var h = Self.pair()
        _ = h.send(1, .invite(Self.invite))
        _ = h.send(2, .accept(callId: "c1"))
        #expect(h.router.nextTimeout == nil)
        #expect(h.advance(ms: 60_000) == [])
        #expect(h.router.callCount == 1)
    }

    @Test("calling a user with no connection: the caller gets reject with reason unavailable")
    func unavailable() {
        var h = Self.pair()
        var invite = Self.invite
        invite.to = ["nobody"]
        #expect(h.send(1, .invite(invite)) == [send(1, .reject(callId: "c1", reason: .unavailable))])
        #expect(h.router.callCount == 0)
    }

    @Test("description before accept is refused with invalidState")
    func descriptionBeforeAccept() {
        var h = Self.pair()
        _ = h.send(1, .invite(Self.invite))
        let offer = SignalingMessage.description(callId: "c1", description: .init(type: .offer, sdp: "v=0"))
        #expect(errorCodes(h.send(1, offer), to: 1) == [.invalidState])
    }

    @Test("a reused call id is refused while the call lasts")
    func callIdInUse() {
        var h = Self.pair()
        h.register(3, "carol")
        _ = h.send(1, .invite(Self.invite))
        var other = Self.invite
        other.to = ["alice"]
        #expect(errorCodes(h.send(3, .invite(other)), to: 3) == [.callIdInUse])
    }

    @Test("disconnects: the caller leaving cancels, the answerer leaving hangs up, the only ringing device leaving rejects unavailable")
    func disconnects() {
        var h = Self.pair()
        _ = h.send(1, .invite(Self.invite))
        #expect(h.close(1) == [send(2, .cancel(callId: "c1"))])

        h = Self.pair()
        _ = h.send(1, .invite(Self.invite))
        _ = h.send(2, .accept(callId: "c1"))
        #expect(h.close(2) == [send(1, .hangup(callId: "c1"))])

        h = Self.pair()
        _ = h.send(1, .invite(Self.invite))
        #expect(h.close(2) == [send(1, .reject(callId: "c1", reason: .unavailable))])
        #expect(h.router.callCount == 0)
    }

    @Test("cancel crossing an accept acts as hangup")
    func cancelAfterAccept() {
        var h = Self.pair()
        _ = h.send(1, .invite(Self.invite))
        _ = h.send(2, .accept(callId: "c1"))
        #expect(h.send(1, .cancel(callId: "c1")) == [send(2, .hangup(callId: "c1"))])
    }
}

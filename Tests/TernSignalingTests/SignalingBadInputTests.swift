import Testing
import TernSignaling

@Suite("Router: bad input is refused, the connection and the others keep working")
struct SignalingBadInputTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let frame: String
        let code: SignalingErrorCode
        var testDescription: String { name }
    }

    static let huge = #"{"type":"enqueue","queue":"q","requestId":"r","attachedData":[{"dataName":"k","dataValue":""#
        + String(repeating: "x", count: 256 * 1024) + #""}]}"#

    static let cases: [Case] = [
        Case(name: "not JSON", frame: "{type: register", code: .badJSON),
        Case(name: "empty frame", frame: "", code: .badJSON),
        Case(name: "JSON array", frame: "[1,2]", code: .invalidMessage),
        Case(name: "no type", frame: #"{"user":"x"}"#, code: .invalidMessage),
        Case(name: "type is a number", frame: #"{"type":7}"#, code: .invalidMessage),
        Case(name: "unknown type", frame: #"{"type":"teleport","callId":"c1"}"#, code: .unknownType),
        Case(name: "server-only type", frame: #"{"type":"registered","user":"alice"}"#, code: .serverOnlyType),
        Case(name: "callId is a number", frame: #"{"type":"accept","callId":42}"#, code: .invalidMessage),
        Case(name: "missing callId", frame: #"{"type":"hangup"}"#, code: .invalidMessage),
        Case(name: "media is a string", frame: #"{"type":"invite","callId":"c2","to":"bob","media":"yes"}"#, code: .invalidMessage),
        Case(name: "unknown reject reason", frame: #"{"type":"reject","callId":"c1","reason":"meh"}"#, code: .invalidMessage),
        Case(name: "sdpMLineIndex is a string",
             frame: #"{"type":"candidate","callId":"c1","candidate":{"candidate":"c","sdpMid":"0","sdpMLineIndex":"0"}}"#,
             code: .invalidMessage),
        Case(name: "candidate key missing", frame: #"{"type":"candidate","callId":"c1"}"#, code: .invalidMessage),
        Case(name: "negative timeout", frame: #"{"type":"invite","callId":"c2","to":"bob","timeoutMs":-5}"#, code: .invalidMessage),
        Case(name: "empty call id", frame: #"{"type":"invite","callId":"","to":"bob"}"#, code: .invalidMessage),
        Case(name: "frame over 256 KiB", frame: huge, code: .frameTooLarge),
        Case(name: "impersonation: register as bob with a wrong token", frame: #"{"type":"register","user":"bob","token":"00"}"#,
             code: .alreadyRegistered),
        Case(name: "someone else's call: accept", frame: #"{"type":"accept","callId":"c1"}"#, code: .notInCall),
        Case(name: "someone else's call: hangup", frame: #"{"type":"hangup","callId":"c1"}"#, code: .notInCall),
        Case(name: "someone else's call: description",
             frame: #"{"type":"description","callId":"c1","description":{"type":"offer","sdp":"v=0"}}"#, code: .notInCall),
        Case(name: "someone else's call: candidate", frame: #"{"type":"candidate","callId":"c1","candidate":null}"#, code: .notInCall),
        Case(name: "someone else's call: cancel", frame: #"{"type":"cancel","callId":"c1"}"#, code: .notInCall),
        Case(name: "someone else's queue request", frame: #"{"type":"dequeue","queue":"q","requestId":"r1"}"#, code: .unknownRequest),
    ]

    @Test("each bad frame from mallory gets one error; alice and bob's call goes on", arguments: cases)
    func refused(bad: Case) {
        var h = RouterHarness()
        h.register(1, "alice")
        h.register(2, "bob")
        h.register(3, "mallory")
        _ = h.send(1, .invite(Invite(callId: "c1", to: "bob")))
        _ = h.send(2, .accept(callId: "c1"))
        _ = h.send(1, .enqueue(queue: "q", requestId: "r1", attachedData: []))

        let refusedBefore = h.router.refusals[bad.code, default: 0]
        let out = h.json(3, bad.frame)
        #expect(errorCodes(out, to: 3) == [bad.code])
        #expect(h.router.refusals[bad.code, default: 0] == refusedBefore + 1, "counted under its code")
        #expect(out.count == 1, "nothing but the error leaves the router")

        // mallory's connection is still up and registered, and the call still works.
        #expect(h.router.user(of: c(3)) == "mallory")
        let offer = SignalingMessage.description(callId: "c1", description: .init(type: .offer, sdp: "v=0"))
        #expect(h.send(1, offer) == [send(2, offer)])
        #expect(h.send(3, .enqueue(queue: "q", requestId: "r3", attachedData: []))
            == [send(3, .queuePosition(queue: "q", requestId: "r3", position: 2))])
    }

    @Test("a bad frame does not reach the peer: error text names the field")
    func errorMessageNamesField() {
        var h = RouterHarness()
        h.register(1, "alice")
        let out = h.json(1, #"{"type":"accept","callId":42}"#)
        guard case .send(_, .error(let error)) = out.first else { Issue.record("no error"); return }
        #expect(error.message.contains("callId"))
    }

    @Test("after maxConsecutiveErrors refused messages in a row the router asks to close; a good message resets the count")
    func errorBudget() {
        var limits = SignalingLimits()
        limits.maxConsecutiveErrors = 3
        var h = RouterHarness(limits: limits)
        _ = h.json(1, "x")
        _ = h.json(1, "x")
        h.register(1, "alice")
        _ = h.json(1, "x")
        _ = h.json(1, "x")
        let out = h.json(1, "x")
        #expect(errorCodes(out, to: 1) == [.badJSON, .tooManyErrors])
        #expect(out.last == .close(c(1), reason: "too many errors"))
        #expect(h.json(1, "x") == [], "a closing connection gets nothing more")
    }
}

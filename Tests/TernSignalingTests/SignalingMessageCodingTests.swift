import Testing
import TernSignaling

@Suite("Protocol v1 message coding")
struct SignalingMessageCodingTests {
    static let all: [SignalingMessage] = [
        .register(user: "alice", token: "ab"),
        .registered(user: "alice"),
        .invite(Invite(callId: "c1", from: "alice", to: "bob", media: MediaOptions(audio: true, video: true, data: true),
                       attachedData: [AttachedData(dataName: "k", dataValue: "v"), AttachedData(dataName: "a", dataValue: "b")],
                       timeoutMs: 30000, rejectPolicy: .any)),
        .ringing(callId: "c1"), .accept(callId: "c1"), .reject(callId: "c1", reason: .busy),
        .cancel(callId: "c1"), .hangup(callId: "c1"), .timeout(callId: "c1"), .answeredElsewhere(callId: "c1"), .rejectedElsewhere(callId: "c1"),
        .description(callId: "c1", description: SignalingSessionDescription(type: .offer, sdp: "v=0\r\n")),
        .candidate(callId: "c1", candidate: SignalingICECandidate(
            candidate: "candidate:1 1 udp 2130706431 127.0.0.1 5000 typ host", sdpMid: "0", sdpMLineIndex: 0)),
        .candidate(callId: "c1", candidate: nil),
        .resume(callIds: ["c1", "c2"]),
        .resumed(calls: [ResumedCall(callId: "c1", state: .answered), ResumedCall(callId: "c2", state: .ringing)]),
        .enqueue(queue: "support", requestId: "r1", attachedData: [AttachedData(dataName: "order", dataValue: "42")]),
        .dequeue(queue: "support", requestId: "r1"), .dequeued(queue: "support", requestId: "r1"),
        .queuePosition(queue: "support", requestId: "r1", position: 3), .pick(queue: "support"),
        .picked(queue: "support", requestId: "r1", customer: "dave", attachedData: []),
        .assigned(queue: "support", requestId: "r1", agent: "carol"),
        .error(SignalingError(code: .notInCall, message: "no", callId: "c1")),
        .invite(Invite(callId: "g1", from: "alice", to: ["alice", "bob", "carol"], mode: .group, media: .audioVideo,
                       timeoutMs: 20000, invitePolicy: .callerOnly)),
        .invite(Invite(callId: "d1", to: ["mum", "dad"], mode: .firstAnswer)),
        .members(callId: "g1", members: [CallMember(user: "alice", state: .accepted),
                                         CallMember(user: "bob", state: .rejected, reason: .busy, invitedBy: "alice")]),
        .inviteMore(callId: "g1", to: ["dave"], timeoutMs: nil),
        .cancelInvitees(callId: "g1", to: ["dave"]),
        .quit(callId: "g1"),
        .ended(callId: "g1", reason: .allLeft),
        .description(callId: "g1", description: SignalingSessionDescription(type: .answer, sdp: "v=0\r\n"), from: "bob", to: "carol"),
        .candidate(callId: "g1", candidate: nil, to: "carol"),
        .callStatus(callId: "c1", state: nil),
        .callStatus(callId: "c1", state: .answered),
        .accept(callId: "g1", attachedData: [AttachedData(dataName: "device", dataValue: "tablet")]),
        .reject(callId: "g1", reason: .busy, attachedData: [AttachedData(dataName: "note", dataValue: "in a meeting")]),
        .members(callId: "g1", members: [CallMember(user: "bob", state: .accepted, invitedBy: "alice",
                                                    attachedData: [AttachedData(dataName: "device", dataValue: "tablet")])]),
    ]

    @Test("group wire shapes: to is a list with mode, cancel with to is cancelInvitees, a one-to-one invite keeps to as a string")
    func groupShapes() throws {
        #expect(try SignalingCodec.decode(#"{"type":"invite","callId":"g1","to":["bob","carol"]}"#)
            == .invite(Invite(callId: "g1", to: ["bob", "carol"], mode: .group, media: MediaOptions())))
        #expect(try SignalingCodec.decode(#"{"type":"cancel","callId":"g1","to":["bob"]}"#)
            == .cancelInvitees(callId: "g1", to: ["bob"]))
        #expect(try SignalingCodec.decode(#"{"type":"cancel","callId":"g1"}"#) == .cancel(callId: "g1"))
        #expect(SignalingCodec.encode(.invite(Invite(callId: "c1", to: "bob", media: MediaOptions())))
            == #"{"attachedData":[],"callId":"c1","media":{"audio":false,"data":false,"video":false},"to":"bob","type":"invite"}"#)
        #expect(SignalingCodec.encode(.callStatus(callId: "c1", state: nil)) == #"{"callId":"c1","type":"callStatus"}"#)
        #expect(SignalingCodec.encode(.accept(callId: "c1")) == #"{"callId":"c1","type":"accept"}"#, "no data: the old frame")
        #expect(SignalingCodec.encode(.reject(callId: "c1", reason: .busy)) == #"{"callId":"c1","reason":"busy","type":"reject"}"#)
    }

    @Test("every message type survives encode then decode", arguments: all)
    func roundTrip(message: SignalingMessage) throws {
        #expect(try SignalingCodec.decode(SignalingCodec.encode(message)) == message)
    }

    @Test("every type of protocol v1 has a coded example")
    func coverage() {
        #expect(Set(Self.all.map(\.type)) == SignalingMessage.allTypes)
    }

    @Test("end of candidates is encoded as an explicit null")
    func endOfCandidates() throws {
        let text = SignalingCodec.encode(.candidate(callId: "c1", candidate: nil))
        #expect(text == #"{"callId":"c1","candidate":null,"type":"candidate"}"#)
        #expect(try SignalingCodec.decode(#"{"type":"candidate","callId":"c1","candidate":null}"#)
            == .candidate(callId: "c1", candidate: nil))
    }

    @Test("browser JSON forms decode: RTCSessionDescriptionInit and RTCIceCandidateInit with usernameFragment")
    func w3cShapes() throws {
        let description = try SignalingCodec.decode(
            #"{"type":"description","callId":"c1","description":{"type":"answer","sdp":"v=0"}}"#)
        #expect(description == .description(callId: "c1", description: .init(type: .answer, sdp: "v=0")))
        let candidate = try SignalingCodec.decode(
            #"{"type":"candidate","callId":"c1","candidate":{"candidate":"candidate:x","sdpMid":"0","sdpMLineIndex":0,"usernameFragment":"uf"}}"#)
        #expect(candidate == .candidate(callId: "c1", candidate: .init(
            candidate: "candidate:x", sdpMid: "0", sdpMLineIndex: 0, usernameFragment: "uf")))
    }

    @Test("invite defaults: no media keys means all false, no attachedData means empty, order of attachedData kept")
    func inviteDefaults() throws {
        let message = try SignalingCodec.decode(
            #"{"type":"invite","callId":"c1","to":"bob","media":{"audio":true},"attachedData":[{"dataName":"z","dataValue":"1"},{"dataName":"a","dataValue":"2"}]}"#)
        guard case .invite(let invite) = message else { Issue.record("not an invite"); return }
        #expect(invite.media == MediaOptions(audio: true))
        #expect(invite.attachedData.map(\.dataName) == ["z", "a"])
        #expect(invite.timeoutMs == nil && invite.rejectPolicy == nil)
    }
}

import Testing
import TernCore
import TernSignaling

@Suite("Router: group calls")
struct SignalingRouterGroupTests {
    /// alice on 1, bob on 2, carol on 3, dave on 4.
    static func four() -> RouterHarness {
        var h = RouterHarness()
        for (n, user) in [(1, "alice"), (2, "bob"), (3, "carol"), (4, "dave")] { h.register(UInt64(n), user) }
        return h
    }

    static func groupInvite(_ to: [String], timeoutMs: Int = 30000, policy: InvitePolicy? = nil) -> SignalingMessage {
        .invite(Invite(callId: "g1", to: to, mode: .group, media: .audioVideo, timeoutMs: timeoutMs, invitePolicy: policy))
    }

    @Test("a group invite rings every invitee with the member list; the caller gets members with both inviting")
    func inviteRingsEveryone() {
        var h = Self.four()
        let out = h.send(1, Self.groupInvite(["bob", "carol"]))
        let delivered = Invite(callId: "g1", from: "alice", to: ["alice", "bob", "carol"], mode: .group, media: .audioVideo,
                               timeoutMs: 30000, rejectPolicy: .all, invitePolicy: .anyMember)
        #expect(messages(out, to: 2) == [.invite(delivered)])
        #expect(messages(out, to: 3) == [.invite(delivered)])
        #expect(messages(out, to: 4) == [])
        #expect(lastMembers(out, to: 1) == ["alice accepted", "bob inviting", "carol inviting"])
    }

    @Test("each invitee's answer is tracked on its own: ringing, reject busy, accept; every accepted member hears of each")
    func answersTrackedOneByOne() {
        var h = Self.four()
        _ = h.send(1, Self.groupInvite(["bob", "carol", "dave"]))
        #expect(lastMembers(h.send(2, .ringing(callId: "g1")), to: 1)
            == ["alice accepted", "bob ringing", "carol inviting", "dave inviting"])
        #expect(lastMembers(h.send(4, .reject(callId: "g1", reason: .busy)), to: 1)
            == ["alice accepted", "bob ringing", "carol inviting", "dave rejected(busy)"])
        let accepted = h.send(2, .accept(callId: "g1"))
        #expect(lastMembers(accepted, to: 1) == ["alice accepted", "bob accepted", "carol inviting", "dave rejected(busy)"])
        #expect(lastMembers(accepted, to: 2) == lastMembers(accepted, to: 1))
        #expect(messages(accepted, to: 3) == [], "a ringing invitee is not a member yet")
        let carol = h.send(3, .accept(callId: "g1"))
        #expect(lastMembers(carol, to: 3) == ["alice accepted", "bob accepted", "carol accepted", "dave rejected(busy)"])
        #expect(h.router.callCount == 1)
    }

    @Test("an invitee's own data on its accept or reject is reported to every member")
    func inviteeData() {
        var h = Self.four()
        _ = h.send(1, Self.groupInvite(["bob", "carol"]))
        let note = [AttachedData(dataName: "note", dataValue: "driving")]
        let rejected = h.send(3, .reject(callId: "g1", reason: .busy, attachedData: note))
        guard case .members(_, let members)? = messages(rejected, to: 1).last else { Issue.record("no members"); return }
        #expect(members.first { $0.user == "carol" }?.attachedData == note)
        let device = [AttachedData(dataName: "device", dataValue: "tablet")]
        let accepted = h.send(2, .accept(callId: "g1", attachedData: device))
        guard case .members(_, let after)? = messages(accepted, to: 2).last else { Issue.record("no members"); return }
        #expect(after.first { $0.user == "bob" }?.attachedData == device)
        #expect(after.first { $0.user == "carol" }?.attachedData == note)
    }

    @Test("descriptions and candidates go to the member named in to, delivered with from; without to they are refused")
    func meshRelay() {
        var h = Self.four()
        _ = h.send(1, Self.groupInvite(["bob", "carol"]))
        _ = h.send(2, .accept(callId: "g1"))
        _ = h.send(3, .accept(callId: "g1"))
        let offer = SignalingSessionDescription(type: .offer, sdp: "v=0 carol→bob")
        #expect(h.send(3, .description(callId: "g1", description: offer, to: "bob"))
            == [send(2, .description(callId: "g1", description: offer, from: "carol", to: "bob"))])
        #expect(h.send(2, .candidate(callId: "g1", candidate: nil, from: "mallory", to: "carol"))
            == [send(3, .candidate(callId: "g1", candidate: nil, from: "bob", to: "carol"))], "from is forced to the sender")
        #expect(errorCodes(h.send(3, .description(callId: "g1", description: offer)), to: 3) == [.invalidState])
        #expect(errorCodes(h.send(3, .description(callId: "g1", description: offer, to: "carol")), to: 3) == [.invalidState])
        #expect(errorCodes(h.send(4, .description(callId: "g1", description: offer, to: "bob")), to: 4) == [.notInCall])
    }

    @Test("a member quits and the call goes on; when the last other member quits it ends allLeft")
    func quitThenAllLeft() {
        var h = Self.four()
        _ = h.send(1, Self.groupInvite(["bob", "carol"]))
        _ = h.send(2, .accept(callId: "g1"))
        _ = h.send(3, .accept(callId: "g1"))
        let quit = h.send(2, .quit(callId: "g1"))
        #expect(lastMembers(quit, to: 1) == ["alice accepted", "bob quit", "carol accepted"])
        #expect(messages(quit, to: 2) == [])
        #expect(h.router.callCount == 1)
        let last = h.send(3, .quit(callId: "g1"))
        #expect(messages(last, to: 1).last == .ended(callId: "g1", reason: .allLeft))
        #expect(h.router.callCount == 0)
    }

    @Test("the caller's hangup ends the call for everyone: ringing invitees get cancel, members get ended")
    func callerEnds() {
        var h = Self.four()
        _ = h.send(1, Self.groupInvite(["bob", "carol"]))
        _ = h.send(2, .accept(callId: "g1"))
        let out = h.send(1, .hangup(callId: "g1"))
        #expect(messages(out, to: 2) == [.ended(callId: "g1", reason: .ended)])
        #expect(messages(out, to: 1) == [.ended(callId: "g1", reason: .ended)])
        #expect(messages(out, to: 3) == [.cancel(callId: "g1")])
        #expect(h.router.callCount == 0)
    }

    @Test("invite more while the call runs; cancel one invitee without ending the call; callerOnly refuses others")
    func inviteMoreAndCancel() {
        var h = Self.four()
        _ = h.send(1, Self.groupInvite(["bob"]))
        _ = h.send(2, .accept(callId: "g1"))
        let more = h.send(2, .inviteMore(callId: "g1", to: ["carol", "dave"], timeoutMs: 10000))
        #expect(messages(more, to: 3).count == 1)
        if case .invite(let invite)? = messages(more, to: 3).first {
            #expect(invite.from == "bob")
            #expect(invite.to == ["alice", "bob", "carol", "dave"])
        }
        #expect(lastMembers(more, to: 1) == ["alice accepted", "bob accepted", "carol inviting", "dave inviting"])
        let cancelled = h.send(1, .cancelInvitees(callId: "g1", to: ["dave"]))
        #expect(messages(cancelled, to: 4) == [.cancel(callId: "g1")])
        #expect(lastMembers(cancelled, to: 2) == ["alice accepted", "bob accepted", "carol inviting", "dave cancelled"])
        #expect(errorCodes(h.send(1, .inviteMore(callId: "g1", to: ["carol"], timeoutMs: nil)), to: 1) == [.invalidState])

        var strict = Self.four()
        _ = strict.send(1, Self.groupInvite(["bob"], policy: .callerOnly))
        _ = strict.send(2, .accept(callId: "g1"))
        #expect(errorCodes(strict.send(2, .inviteMore(callId: "g1", to: ["carol"], timeoutMs: nil)), to: 2) == [.forbidden])
        #expect(messages(strict.send(1, .inviteMore(callId: "g1", to: ["carol"], timeoutMs: nil)), to: 3).count == 1)
    }

    @Test("each invitation times out on its own deadline; the call ends when nobody else remains")
    func perInviteeTimeout() {
        var h = Self.four()
        _ = h.send(1, Self.groupInvite(["bob", "carol"], timeoutMs: 5000))
        _ = h.send(2, .accept(callId: "g1"))
        #expect(h.advance(ms: 1000) == [])
        _ = h.send(2, .inviteMore(callId: "g1", to: ["dave"], timeoutMs: 8000))
        let first = h.advance(ms: 4000)
        #expect(messages(first, to: 3) == [.timeout(callId: "g1")])
        #expect(lastMembers(first, to: 1) == ["alice accepted", "bob accepted", "carol timeout", "dave inviting"])
        #expect(h.router.nextTimeout == h.now + .milliseconds(4000))
        let second = h.advance(ms: 4000)
        #expect(messages(second, to: 4) == [.timeout(callId: "g1")])
        #expect(h.router.callCount == 1, "alice and bob are still in")
    }

    @Test("every invitee rejects or times out: the caller alone gets members then ended allLeft")
    func nobodyComes() {
        var h = Self.four()
        _ = h.send(1, Self.groupInvite(["bob", "carol"], timeoutMs: 5000))
        _ = h.send(2, .reject(callId: "g1", reason: .declined))
        let out = h.advance(ms: 5000)
        #expect(lastMembers(out, to: 1) == ["alice accepted", "bob rejected(declined)", "carol timeout"])
        #expect(messages(out, to: 1).last == .ended(callId: "g1", reason: .allLeft))
        #expect(h.router.callCount == 0)
    }

    @Test("an invitee with no connection is rejected unavailable at once (push off); all unavailable ends the call")
    func unavailable() {
        var h = Self.four()
        let out = h.send(1, Self.groupInvite(["bob", "nobody"]))
        #expect(lastMembers(out, to: 1) == ["alice accepted", "bob inviting", "nobody rejected(unavailable)"])
        let none = h.send(1, .invite(Invite(callId: "g2", to: ["ghost", "nobody"], mode: .group)))
        #expect(messages(none, to: 1).last == .ended(callId: "g2", reason: .allLeft))
    }

    @Test("a member's connection closing is a quit; a ringing device closing is a reject unavailable")
    func connectionsGo() {
        var h = Self.four()
        _ = h.send(1, Self.groupInvite(["bob", "carol", "dave"]))
        _ = h.send(2, .accept(callId: "g1"))
        _ = h.send(3, .accept(callId: "g1"))
        #expect(lastMembers(h.close(3), to: 1) == ["alice accepted", "bob accepted", "carol quit", "dave inviting"])
        #expect(lastMembers(h.close(4), to: 1) == ["alice accepted", "bob accepted", "carol quit", "dave rejected(unavailable)"])
    }

    @Test("a dropped member's place is held and resumed on a new connection; the others' descriptions wait for it")
    func dropAndResume() {
        var h = Self.four()
        _ = h.send(1, Self.groupInvite(["bob", "carol"]))
        _ = h.send(2, .accept(callId: "g1"))
        _ = h.send(3, .accept(callId: "g1"))
        #expect(messages(h.drop(2), to: 1) == [], "a held member is not reported gone")
        let offer = SignalingSessionDescription(type: .offer, sdp: "v=0")
        #expect(h.send(3, .description(callId: "g1", description: offer, to: "bob")) == [])
        h.register(5, "bob")
        let out = h.send(5, .resume(callIds: ["g1"]))
        #expect(messages(out, to: 5) == [.resumed(calls: [ResumedCall(callId: "g1", state: .answered)]),
                                         .description(callId: "g1", description: offer, from: "carol", to: "bob")])
        #expect(h.send(3, .description(callId: "g1", description: offer, to: "bob"))
            == [send(5, .description(callId: "g1", description: offer, from: "carol", to: "bob"))])
    }

    @Test("a group lists at most maxGroupMembers; to listing the caller or a user twice is refused")
    func limits() {
        var limits = SignalingLimits()
        limits.maxGroupMembers = 3
        var h = RouterHarness(limits: limits)
        h.register(1, "alice")
        #expect(errorCodes(h.send(1, .invite(Invite(callId: "g1", to: ["a", "b", "c"], mode: .group))), to: 1) == [.limitExceeded])
        #expect(errorCodes(h.send(1, .invite(Invite(callId: "g1", to: ["a", "a"], mode: .group))), to: 1) == [.invalidMessage])
        #expect(errorCodes(h.send(1, .invite(Invite(callId: "g1", to: ["alice"], mode: .group))), to: 1) == [.invalidMessage])
        #expect(errorCodes(h.send(1, .invite(Invite(callId: "g1", to: [], mode: .group))), to: 1) == [.invalidMessage])
    }

    @Test("group-only messages on a one-to-one call are refused with invalidState; the call goes on")
    func groupMessagesOnOneToOne() {
        var h = Self.four()
        _ = h.send(1, .invite(Invite(callId: "c1", to: "bob")))
        #expect(errorCodes(h.send(1, .quit(callId: "c1")), to: 1) == [.invalidState])
        #expect(errorCodes(h.send(1, .inviteMore(callId: "c1", to: ["carol"], timeoutMs: nil)), to: 1) == [.invalidState])
        #expect(h.send(2, .accept(callId: "c1")) == [send(1, .accept(callId: "c1"))])
    }
}

@Suite("Router: first answer wins across users")
struct SignalingRouterFirstAnswerTests {
    @Test("every device of every invitee rings; the first accept wins and all the others get answeredElsewhere")
    func firstAnswerWins() {
        var h = SignalingRouterGroupTests.four()
        let out = h.send(1, .invite(Invite(callId: "d1", to: ["bob", "carol", "dave"], mode: .firstAnswer)))
        for n: UInt64 in [2, 3, 4] { #expect(messages(out, to: n).count == 1) }
        #expect(h.send(3, .ringing(callId: "d1")) == [send(1, .ringing(callId: "d1"))])
        let accepted = h.send(4, .accept(callId: "d1"))
        #expect(accepted == [send(1, .accept(callId: "d1")), send(2, .answeredElsewhere(callId: "d1")),
                             send(3, .answeredElsewhere(callId: "d1"))])
        #expect(h.send(4, .hangup(callId: "d1")) == [send(1, .hangup(callId: "d1"))])
    }

    @Test("rejects from every invitee end it with the combined reason, as devices of one user do")
    func allReject() {
        var h = SignalingRouterGroupTests.four()
        _ = h.send(1, .invite(Invite(callId: "d1", to: ["bob", "carol"], mode: .firstAnswer)))
        #expect(h.send(2, .reject(callId: "d1", reason: .busy)) == [])
        #expect(h.send(3, .reject(callId: "d1", reason: .declined)) == [send(1, .reject(callId: "d1", reason: .declined))])
    }
}

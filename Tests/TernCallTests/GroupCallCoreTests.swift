import Testing
import TernCall
import TernCore
import TernSignaling

/// Group call cores wired to the real sans-I/O `SignalingRouter`: every message goes core →
/// router → cores until nothing moves, in virtual time. Proves who offers to whom, which legs
/// open and close, and the states each member's application sees.
@Suite("Group call cores through the real router, in virtual time")
struct GroupCallCoreTests {
    struct Harness {
        var router = SignalingRouter()
        var clients: [String: CallClient] = [:]
        var connection: [String: SignalingConnectionID] = [:]
        var actions: [String: [CallAction]] = [:]
        var states: [String: [String]] = [:]

        static var now: Instant { Instant(nanoseconds: 1_000_000_000) }
        var now: Instant { Self.now }

        init(_ users: [String]) {
            for (index, user) in users.enumerated() {
                var client = CallClient()
                client.localUser = user
                _ = try? client.start(now: now)
                _ = client.signalingConnected(now: now)
                clients[user] = client
                connection[user] = SignalingConnectionID(UInt64(index + 1))
                _ = router.handle(connection: SignalingConnectionID(UInt64(index + 1)),
                                  message: .register(user: user, token: ""), now: now)
            }
        }

        /// Runs `body` on `user`'s core and carries every message until nothing moves.
        mutating func on(_ user: String, _ body: (inout CallClient) throws -> [CallOutput]) throws {
            var client = clients[user]!
            let first = try body(&client)
            clients[user] = client
            var queue = [(user, first)]
            while !queue.isEmpty {
                let (who, outputs) = queue.removeFirst()
                for output in outputs {
                    switch output {
                    case .send(let message):
                        for action in router.handle(connection: connection[who]!, message: message, now: now) {
                            guard case .send(let to, let delivered) = action,
                                  let target = connection.first(where: { $0.value == to })?.key else { continue }
                            queue.append((target, clients[target]!.receive(delivered, now: now)))
                        }
                    case .action(let action): actions[who, default: []].append(action)
                    case .stateChanged(let change):
                        states[who, default: []].append(change.state.rawValue + (change.reason.map { "(\($0))" } ?? ""))
                    default: break
                    }
                }
            }
        }

        /// The transport of `user`'s leg to `member` connected.
        mutating func legUp(_ user: String, _ member: String) throws {
            let key = GroupCallLeg(callId: "g1", member: member).key
            try on(user) { $0.transportChanged(callId: key, .connected, now: Self.now) }
        }

        func leg(_ member: String) -> String { GroupCallLeg(callId: "g1", member: member).key }
    }

    @Test("the member who joins later offers to every member already in; earlier members await; nobody offers twice")
    func laterMemberOffers() throws {
        var h = Harness(["alice", "bob", "carol"])
        try h.on("alice") { try $0.call(callId: "g1", to: ["bob", "carol"], mode: .group, media: .audioOnly, txCode: "", now: Harness.now) }
        #expect(h.states["bob"] == ["RINGING"] && h.states["carol"] == ["RINGING"])
        #expect(h.states["alice"] == ["RINGING"])
        try h.on("bob") { try $0.accept(media: .audioOnly, now: Harness.now) }
        #expect(h.actions["bob"] == [.createOffer(callId: h.leg("alice"), media: .audioOnly)])
        #expect(h.actions["alice"] == [.awaitOffer(callId: h.leg("bob"), media: .audioOnly)])
        try h.on("carol") { try $0.accept(media: .audioOnly, now: Harness.now) }
        #expect(h.actions["carol"] == [.createOffer(callId: h.leg("alice"), media: .audioOnly),
                                        .createOffer(callId: h.leg("bob"), media: .audioOnly)])
        #expect(h.actions["alice"] == [.awaitOffer(callId: h.leg("bob"), media: .audioOnly),
                                        .awaitOffer(callId: h.leg("carol"), media: .audioOnly)])
        #expect(h.actions["bob"] == [.createOffer(callId: h.leg("alice"), media: .audioOnly),
                                      .awaitOffer(callId: h.leg("carol"), media: .audioOnly)])
        try h.legUp("alice", "bob")
        #expect(h.states["alice"] == ["RINGING", "CONNECTING", "IN_PROGRESS"])
        #expect(h.clients["alice"]?.currentGroup?.legs == ["bob": .connected, "carol": .connecting])
    }

    @Test("a member who quits has its legs closed on every other member; the last one left ends allLeft")
    func quitClosesLegs() throws {
        var h = Harness(["alice", "bob", "carol"])
        try h.on("alice") { try $0.call(callId: "g1", to: ["bob", "carol"], mode: .group, media: .audioOnly, txCode: "", now: Harness.now) }
        try h.on("bob") { try $0.accept(media: .audioOnly, now: Harness.now) }
        try h.on("carol") { try $0.accept(media: .audioOnly, now: Harness.now) }
        try h.on("carol") { try $0.quit(now: Harness.now) }
        #expect(h.actions["carol"]?.suffix(2) == [.closePeer(callId: h.leg("alice")), .closePeer(callId: h.leg("bob"))])
        #expect(h.actions["alice"]?.last == .closePeer(callId: h.leg("carol")))
        #expect(h.actions["bob"]?.last == .closePeer(callId: h.leg("carol")))
        #expect(h.states["carol"]?.last == "ENDED(localHangUp)")
        try h.on("bob") { try $0.hangUp(now: Harness.now) }
        #expect(h.states["alice"]?.last == "ENDED(allLeft)")
        #expect(h.clients["alice"]?.isOnCall == false)
    }

    @Test("members listing more accepted members than the mesh limit open legs to the limit only")
    func legsBoundedByTheMeshLimit() throws {
        var client = CallClient()
        client.localUser = "bob"
        _ = try client.start(now: Harness.now)
        _ = client.signalingConnected(now: Harness.now)
        let invite = Invite(callId: "g1", from: "alice", to: ["alice", "bob"], mode: .group, media: .audioVideo)
        _ = client.receive(.invite(invite), now: Harness.now)
        _ = try client.accept(media: .audioVideo, now: Harness.now)
        let many = (0..<40).map { CallMember(user: "m\($0)", state: .accepted) } + [CallMember(user: "bob", state: .accepted)]
        let out = client.receive(.members(callId: "g1", members: many), now: Harness.now)
        let offers = out.filter { if case .action(.createOffer) = $0 { true } else { false } }
        #expect(offers.count == CallConfiguration().maxVideoMeshMembers - 1)
        #expect(client.currentGroup?.legs.count == 3)
    }

    @Test("a group invite while on another call is answered busy; the member shows rejected(busy)")
    func busyInvitee() throws {
        var h = Harness(["alice", "bob", "carol"])
        try h.on("carol") { try $0.call(callId: "c9", to: "bob", media: .audioOnly, txCode: "", now: Harness.now) }
        try h.on("alice") { try $0.call(callId: "g1", to: ["bob", "carol"], mode: .group, media: .audioOnly, txCode: "", now: Harness.now) }
        #expect(h.clients["alice"]?.currentGroup?.members.map(\.description)
            == ["alice accepted", "bob rejected(busy)", "carol rejected(busy)"])
        #expect(h.states["alice"]?.last == "ENDED(allLeft)")
    }
}

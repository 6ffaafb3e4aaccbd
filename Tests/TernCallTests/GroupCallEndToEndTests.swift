import Synchronization
import Testing
import TernCall
import TernCore
import TernPeer
import TernSignaling

/// Group calls end to end: call agents with real peer connections (a full mesh) through the real
/// WebSocket signaling server on 127.0.0.1.
@Suite("Group calls through the real signaling server", .serialized)
struct GroupCallEndToEndTests {
    /// What one agent reported about group calls.
    final class Seen: Sendable {
        let states = Mutex<[String]>([])
        let reasons = Mutex<[String]>([])
        let members = Mutex<[CallMember]>([])
        let messages = Mutex<[String]>([])
        let invites = Mutex<[Invite]>([])
        let signaling = Mutex<[String]>([])

        func watch(_ agent: CallAgent) -> Task<Void, Never> {
            Task {
                for await event in agent.events {
                    guard case let .call(output) = event else { continue }
                    switch output {
                    case let .stateChanged(change):
                        // The reason first: a test that waits for the state reads it next.
                        if let reason = change.reason { reasons.withLock { $0.append("\(reason)") } }
                        states.withLock { $0.append(change.state.rawValue) }
                    case let .incomingCall(invite, _): invites.withLock { $0.append(invite) }
                    case let .signalingStatusChanged(_, _, status): signaling.withLock { $0.append("\(status)") }
                    case let .membersChanged(_, _, members): self.members.withLock { $0 = members }
                    case let .memberEvent(_, member, event):
                        messages.withLock { $0.append("\(member): \(event.data.first?.dataValue ?? "")") }
                    default: break
                    }
                }
            }
        }

        var lastState: String? { states.withLock { $0.last } }
        var lastReason: String? { reasons.withLock { $0.last } }
        var inviteCount: Int { invites.withLock { $0.count } }
        func state(of user: String) -> String? {
            members.withLock { $0.first { $0.user == user }.map(\.description) }
        }
    }

    /// A server and one agent per user, with what each saw.
    struct Mesh {
        var rig: CallLifecycleEndToEndTests.Rig
        var agents: [String: CallAgent] = [:]
        var seen: [String: Seen] = [:]
        var watchers: [Task<Void, Never>] = []
        /// Each user's latest signaling connection, so a test can cut it.
        let connections = CallLifecycleEndToEndTests.Rig.Connections()

        static func start(_ users: [String], configuration: CallConfiguration = CallConfiguration()) async throws -> Mesh {
            var mesh = Mesh(rig: try await .start())
            for user in users {
                // Not Rig.agent: its observer would be a second consumer of the agent's events.
                let url = mesh.rig.url
                let connections = mesh.connections
                let agent = CallAgent(user: user, connect: {
                    let client = try await EndToEnd.connectedClient(user, url: url)
                    connections.latest.withLock { $0[user] = client }
                    return client
                },
                                      peerConfiguration: .loopback, configuration: configuration)
                mesh.rig.agents.append(agent)
                let seen = Seen()
                mesh.watchers.append(seen.watch(agent))
                try await agent.start()
                mesh.agents[user] = agent
                mesh.seen[user] = seen
            }
            return mesh
        }

        subscript(_ user: String) -> CallAgent { agents[user]! }
        func saw(_ user: String) -> Seen { seen[user]! }

        /// Whether `user`'s legs to every one of `others` are connected.
        func connected(_ user: String, to others: [String]) async -> Bool {
            guard let group = await agents[user]?.groupCall else { return false }
            return others.allSatisfy { group.legs[$0] == .connected } && group.legs.count == others.count
        }

        func finish() async {
            watchers.forEach { $0.cancel() }
            await rig.finish()
        }
    }

    @Test("a 4-member video mesh: every member connects to the three others; sendMessage reaches all; quit and end")
    func fourMemberVideoMesh() async throws {
        let users = ["alice", "bob", "carol", "dave"]
        let mesh = try await Mesh.start(users)
        _ = try await mesh["alice"].call(to: ["bob", "carol", "dave"], media: .audioVideo)
        for user in users.dropFirst() {
            #expect(await EndToEnd.eventually { mesh.saw(user).inviteCount == 1 })
            try await mesh[user].accept(media: .audioVideo)
        }
        for user in users {
            #expect(await EndToEnd.eventually { await mesh.connected(user, to: users.filter { $0 != user }) },
                    "\(user) has a connected leg to each other member")
            // Recorded by the watcher task, which can be a moment behind the agent.
            #expect(await EndToEnd.eventually { mesh.saw(user).lastState == "IN_PROGRESS" })
        }
        let peer = try #require(await mesh["bob"].peer(callId: mesh["bob"].groupCall?.callId ?? "", member: "dave"))
        #expect(peer.connectionState == .connected)

        // Each leg's manage-call channel opens just after the leg connects.
        try await Task.sleep(for: .milliseconds(300))
        try await mesh["carol"].sendMessage(eventData: [AttachedData(dataName: "text", dataValue: "hi all")], to: nil)
        for user in ["alice", "bob", "dave"] {
            #expect(await EndToEnd.eventually { mesh.saw(user).messages.withLock { $0 } == ["carol: hi all"] })
        }
        try await mesh["alice"].sendMessage(eventData: [AttachedData(dataName: "text", dataValue: "just bob")], to: "bob")
        #expect(await EndToEnd.eventually { mesh.saw("bob").messages.withLock { $0.last } == "alice: just bob" })

        try await mesh["bob"].quit()
        #expect(await EndToEnd.eventually { mesh.saw("bob").lastReason == "localHangUp" })
        for user in ["alice", "carol", "dave"] {
            #expect(await EndToEnd.eventually { mesh.saw(user).state(of: "bob") == "bob quit" })
            #expect(await EndToEnd.eventually { await mesh.connected(user, to: ["alice", "carol", "dave"].filter { $0 != user }) })
        }
        try await mesh["alice"].endForEveryone()
        for user in ["carol", "dave"] {
            #expect(await EndToEnd.eventually { mesh.saw(user).lastReason == "remoteHangUp" })
        }
        await mesh.finish()
    }

    @Test("one rejects, one times out, one accepts: each tracked on its own; the call goes on with the one")
    func rejectTimeoutAccept() async throws {
        let mesh = try await Mesh.start(["alice", "bob", "carol", "dave"])
        _ = try await mesh["alice"].call(to: ["bob", "carol", "dave"], media: .audioOnly, timeout: .seconds(3))
        #expect(await EndToEnd.eventually { mesh.saw("bob").inviteCount == 1 && mesh.saw("dave").inviteCount == 1 })
        try await mesh["bob"].reject(reason: .declined, attachedData: [AttachedData(dataName: "note", dataValue: "driving")])
        try await mesh["dave"].accept(media: .audioOnly, attachedData: [AttachedData(dataName: "device", dataValue: "tablet")])
        #expect(await EndToEnd.eventually { await mesh.connected("alice", to: ["dave"]) })
        #expect(await EndToEnd.eventually { mesh.saw("alice").state(of: "carol") == "carol timeout" })
        #expect(mesh.saw("alice").state(of: "bob") == "bob rejected(declined)")
        #expect(mesh.saw("alice").state(of: "dave") == "dave accepted")
        let members = mesh.saw("alice").members.withLock { $0 }
        #expect(members.first { $0.user == "bob" }?.attachedData == [AttachedData(dataName: "note", dataValue: "driving")])
        #expect(members.first { $0.user == "dave" }?.attachedData == [AttachedData(dataName: "device", dataValue: "tablet")])
        #expect(await EndToEnd.eventually { mesh.saw("carol").lastReason == "noAnswer" })
        #expect(mesh.saw("alice").lastState == "IN_PROGRESS")
        try await mesh["dave"].quit()
        #expect(await EndToEnd.eventually { mesh.saw("alice").lastReason == "allLeft" })
        await mesh.finish()
    }

    @Test("invite more during the call (the newcomer connects to both), and cancel one invitation without ending the call")
    func inviteMoreAndCancel() async throws {
        let mesh = try await Mesh.start(["alice", "bob", "carol", "dave"])
        _ = try await mesh["alice"].call(to: ["bob"], media: .audioOnly)
        #expect(await EndToEnd.eventually { mesh.saw("bob").inviteCount == 1 })
        try await mesh["bob"].accept(media: .audioOnly)
        #expect(await EndToEnd.eventually { await mesh.connected("alice", to: ["bob"]) })
        try await mesh["bob"].inviteMore(["carol", "dave"])
        #expect(await EndToEnd.eventually { mesh.saw("carol").inviteCount == 1 && mesh.saw("dave").inviteCount == 1 })
        #expect(mesh.saw("carol").invites.withLock { $0.first?.from } == "bob")
        try await mesh["alice"].cancelInvitations(for: ["dave"])
        #expect(await EndToEnd.eventually { mesh.saw("dave").lastReason == "cancelled" })
        try await mesh["carol"].accept(media: .audioOnly)
        #expect(await EndToEnd.eventually { await mesh.connected("carol", to: ["alice", "bob"]) })
        #expect(await EndToEnd.eventually { await mesh.connected("alice", to: ["bob", "carol"]) })
        #expect(mesh.saw("alice").state(of: "dave") == "dave cancelled")
        #expect(mesh.saw("alice").lastState == "IN_PROGRESS")
        await mesh.finish()
    }

    @Test("first answer wins across three users: the first accept gets a one-to-one call, the others end answeredElsewhere")
    func firstAnswerWins() async throws {
        let mesh = try await Mesh.start(["door", "mum", "dad", "kid"])
        _ = try await mesh["door"].call(to: ["mum", "dad", "kid"], mode: .firstAnswer, media: .audioOnly)
        for user in ["mum", "dad", "kid"] { #expect(await EndToEnd.eventually { mesh.saw(user).inviteCount == 1 }) }
        try await mesh["dad"].accept(media: .audioOnly)
        #expect(await EndToEnd.eventually { mesh.saw("door").lastState == "IN_PROGRESS" && mesh.saw("dad").lastState == "IN_PROGRESS" })
        for user in ["mum", "kid"] { #expect(await EndToEnd.eventually { mesh.saw(user).lastReason == "answeredElsewhere" }) }
        await mesh.finish()
    }

    @Test("a member's signaling drops mid-call: its legs keep going, it resumes, and what happened meanwhile reaches it")
    func memberResumes() async throws {
        let mesh = try await Mesh.start(["alice", "bob", "carol"])
        _ = try await mesh["alice"].call(to: ["bob", "carol"], media: .audioOnly)
        for user in ["bob", "carol"] {
            #expect(await EndToEnd.eventually { mesh.saw(user).inviteCount == 1 })
            try await mesh[user].accept(media: .audioOnly)
        }
        #expect(await EndToEnd.eventually { await mesh.connected("bob", to: ["alice", "carol"]) })
        await mesh.connections.cut("bob")
        try await mesh["carol"].quit()
        #expect(await EndToEnd.eventually { mesh.saw("bob").signaling.withLock { $0 } == ["reconnecting", "connected"] })
        #expect(await EndToEnd.eventually { mesh.saw("bob").state(of: "carol") == "carol quit" },
                "the members update sent while bob was away is replayed after the resume")
        #expect(await EndToEnd.eventually { await mesh.connected("bob", to: ["alice"]) })
        #expect(mesh.saw("bob").lastState == "IN_PROGRESS")
        try await mesh["alice"].endForEveryone()
        #expect(await EndToEnd.eventually { mesh.saw("bob").lastReason == "remoteHangUp" })
        await mesh.finish()
    }

    @Test("a mesh past maxVideoMeshMembers is refused before anything is sent, with the limit in the error")
    func meshLimit() async throws {
        let mesh = try await Mesh.start(["alice"])
        await #expect(throws: CallError.groupTooLarge(members: 5, limit: 4, video: true)) {
            _ = try await mesh["alice"].call(to: ["b", "c", "d", "e"], media: .audioVideo)
        }
        await mesh.finish()
    }
}

import Synchronization
import Testing
import TernCall
import TernCore
import TernPeer
import TernSignaling
import TernSignalingClient
import TernSignalingServer

/// Two call agents through the real WebSocket signaling server on 127.0.0.1, with real peer
/// connections on loopback: the call facade end to end.
@Suite("Call agents through the real signaling server", .serialized)
struct CallAgentEndToEndTests {
    /// What one agent reported, recorded by a watcher task.
    final class Observer: Sendable {
        let states = Mutex<[String]>([])
        let reasons = Mutex<[String]>([])
        let events = Mutex<[ManageCallEvent]>([])
        let invites = Mutex<[Invite]>([])
        let channels = Mutex<[DataChannel]>([])

        func watch(_ agent: CallAgent) -> Task<Void, Never> {
            Task {
                for await event in agent.events {
                    if case let .dataChannel(_, channel) = event { channels.withLock { $0.append(channel) } }
                    guard case let .call(output) = event else { continue }
                    switch output {
                    case let .stateChanged(change):
                        // The reason first: a test that waits for the state reads it next.
                        if let reason = change.reason { reasons.withLock { $0.append("\(reason)") } }
                        states.withLock { $0.append(change.state.rawValue) }
                    case let .incomingCall(invite, _):
                        invites.withLock { $0.append(invite) }
                    case let .manageCallEvent(_, _, event):
                        events.withLock { $0.append(event) }
                    default:
                        break
                    }
                }
            }
        }
    }

    @Test("accept: both sides reach IN_PROGRESS, sendMessage arrives byte for byte, remote hang-up ends both")
    func acceptedCallCarriesMessagesAndEnds() async throws {
        let server = SignalingServer(host: "127.0.0.1", port: 0)
        let port = try await server.start()
        let url = "ws://127.0.0.1:\(port)/v1"
        let alice = try await EndToEnd.agent("alice", url: url)
        let bob = try await EndToEnd.agent("bob", url: url)
        let aliceSeen = Observer(), bobSeen = Observer()
        let watchers = [aliceSeen.watch(alice), bobSeen.watch(bob)]
        defer { watchers.forEach { $0.cancel() } }

        _ = try await alice.call(to: "bob", media: .audioOnly,
                                 attachedData: [AttachedData(dataName: "ticket", dataValue: "42")], txCode: "t1")
        #expect(await EndToEnd.eventually { !bobSeen.invites.withLock { $0 }.isEmpty })
        #expect(bobSeen.invites.withLock { $0.first?.attachedData } == [AttachedData(dataName: "ticket", dataValue: "42")])
        try await bob.accept(media: .audioOnly)

        #expect(await EndToEnd.eventually { aliceSeen.states.withLock { $0.last } == "IN_PROGRESS" && bobSeen.states.withLock { $0.last } == "IN_PROGRESS" })
        // The manage-call channel opens just after the transport; sendMessage needs it open.
        var sent = false
        for _ in 0..<200 where !sent {
            do {
                try await alice.sendMessage(eventData: [AttachedData(dataName: "processName", dataValue: "CustOnboarding")])
                sent = true
            } catch {
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        #expect(sent)
        #expect(await EndToEnd.eventually { bobSeen.events.withLock { $0.contains { $0.type == .messageReceived } } })
        #expect(bobSeen.events.withLock { $0.first?.data } == [AttachedData(dataName: "processName", dataValue: "CustOnboarding")])

        try await bob.hangUp()
        #expect(await EndToEnd.eventually { aliceSeen.states.withLock { $0.last } == "ENDED" && bobSeen.states.withLock { $0.last } == "ENDED" })
        #expect(aliceSeen.states.withLock { $0 } == ["RINGING", "CONNECTING", "IN_PROGRESS", "ENDED"])
        #expect(aliceSeen.reasons.withLock { $0 } == ["remoteHangUp"])
        #expect(bobSeen.reasons.withLock { $0 } == ["localHangUp"])
        await alice.stop()
        await bob.stop()
        await server.shutdown()
    }

    @Test("a data channel the caller opens reaches the callee's application, not the call core")
    func applicationDataChannelIsHandedToTheApplication() async throws {
        let server = SignalingServer(host: "127.0.0.1", port: 0)
        let port = try await server.start()
        let url = "ws://127.0.0.1:\(port)/v1"
        let alice = try await EndToEnd.agent("alice", url: url)
        let bob = try await EndToEnd.agent("bob", url: url)
        let aliceSeen = Observer(), bobSeen = Observer()
        let watchers = [aliceSeen.watch(alice), bobSeen.watch(bob)]
        defer { watchers.forEach { $0.cancel() } }

        let callId = try await alice.call(to: "bob", media: MediaOptions(data: true))
        #expect(await EndToEnd.eventually { !bobSeen.invites.withLock { $0 }.isEmpty })
        try await bob.accept(media: MediaOptions(data: true))
        #expect(await EndToEnd.eventually { aliceSeen.states.withLock { $0.last } == "IN_PROGRESS" })
        let peer = try #require(await alice.peer(callId: callId))
        let chat = try peer.createDataChannel("chat")
        #expect(await EndToEnd.eventually { chat.readyState == .open })
        try chat.send("hello")
        // Only the application's channel is announced: `manage-call` stays with the agent.
        #expect(await EndToEnd.eventually { bobSeen.channels.withLock { $0.map(\.label) } == ["chat"] })
        let received = try #require(bobSeen.channels.withLock { $0.first })
        let messages = Mutex<[String]>([])
        let reader = Task {
            for await event in received.events {
                if case let .message(.string(text)) = event { messages.withLock { $0.append(text) } }
            }
        }
        defer { reader.cancel() }
        #expect(await EndToEnd.eventually { messages.withLock { $0 } == ["hello"] })
        try await alice.hangUp()
        #expect(await EndToEnd.eventually { bobSeen.states.withLock { $0.last } == "ENDED" })
        await alice.stop()
        await bob.stop()
        await server.shutdown()
    }

    @Test("reject: the caller ends with reason rejected; sendMessage outside a call fails clearly")
    func rejectedCallEndsTheCaller() async throws {
        let server = SignalingServer(host: "127.0.0.1", port: 0)
        let port = try await server.start()
        let url = "ws://127.0.0.1:\(port)/v1"
        let alice = try await EndToEnd.agent("alice", url: url)
        let bob = try await EndToEnd.agent("bob", url: url)
        let aliceSeen = Observer(), bobSeen = Observer()
        let watchers = [aliceSeen.watch(alice), bobSeen.watch(bob)]
        defer { watchers.forEach { $0.cancel() } }

        await #expect(throws: CallError.self) {
            try await alice.sendMessage(eventData: [AttachedData(dataName: "k", dataValue: "v")])
        }
        _ = try await alice.call(to: "bob", media: .audioOnly)
        #expect(await EndToEnd.eventually { !bobSeen.invites.withLock { $0 }.isEmpty })
        try await bob.reject(reason: .declined)
        #expect(await EndToEnd.eventually { aliceSeen.states.withLock { $0.last } == "ENDED" })
        #expect(aliceSeen.reasons.withLock { $0 } == ["rejected"])
        await alice.stop()
        await bob.stop()
        await server.shutdown()
    }
}

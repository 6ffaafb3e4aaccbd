import Foundation
import Synchronization
import Testing
import TernCall
import TernCore
import TernSignaling

/// Pushes as the app hands them to the agent: the server's pending invitation, the signed
/// payload, and what the agent makes of it. Signaling in memory (the webhook's HTTP path is
/// tested in TernSignalingTests), peer connections real.
@Suite("Invitations delivered by push, on the call agent", .serialized)
struct CallPushTests {
    static let secret = "push-secret-0123456789abcdef-0123456789"

    /// Captures what the router asks to push and signs it as the webhook would.
    final class CapturingPushSender: SignalingPushSender {
        let policy: SignalingPushPolicy
        let pushes = Mutex<[CallPushMessage]>([])
        init(policy: SignalingPushPolicy) { self.policy = policy }
        func push(_ invite: Invite, to user: String, ringMs: Int) {
            let body = PushInvitation(invite: invite, to: user,
                                      expiresAt: Int64(Date().timeIntervalSince1970 * 1000) + Int64(ringMs)).body()
            pushes.withLock { $0.append(CallPushMessage(body: body, signature: PushInvitation.signature(of: body, secret: CallPushTests.secret))) }
        }
        var count: Int { pushes.withLock { $0.count } }
        var last: CallPushMessage? { pushes.withLock { $0.last } }
    }

    final class Seen: Sendable {
        let events = Mutex<[String]>([])
        func watch(_ agent: CallAgent) -> Task<Void, Never> {
            Task {
                for await event in agent.events {
                    guard case let .call(output) = event else { continue }
                    switch output {
                    case let .stateChanged(change): events.withLock { $0.append(change.state.rawValue) }
                    case .incomingCall: events.withLock { $0.append("incoming") }
                    case let .invalidPushCall(_, reason, _): events.withLock { $0.append("invalid \(reason)") }
                    default: break
                    }
                }
            }
        }
        var all: [String] { events.withLock { $0 } }
    }

    static func agent(_ user: String, _ board: SignalingSwitchboard, secret: String? = CallPushTests.secret)
        -> (CallAgent, Seen, Task<Void, Never>)
    {
        var configuration = CallConfiguration()
        configuration.pushSecret = secret
        let agent = CallAgent(user: user, connect: {
            let client = SignalingClient(transport: InMemorySignalingTransport(switchboard: board),
                                         options: EndToEnd.clientOptions)
            try await client.register(user: user, token: "")
            return client
        }, peerConfiguration: .loopback, configuration: configuration)
        let seen = Seen()
        return (agent, seen, seen.watch(agent))
    }

    @Test("a push wakes a stopped agent: it connects, the pending invite rings, it answers and the call connects")
    func pushRingsAndConnects() async throws {
        let sender = CapturingPushSender(policy: .whenOffline)
        let board = SignalingSwitchboard(pushSender: sender)
        let (alice, aliceSeen, a) = Self.agent("alice", board)
        let (bob, bobSeen, b) = Self.agent("bob", board)
        try await alice.start()
        #expect(await EndToEnd.eventually { await alice.isRunning })
        _ = try await alice.call(to: "bob", media: .audioOnly)
        #expect(await EndToEnd.eventually { sender.count == 1 })
        await bob.handlePushMessage(try #require(sender.last))
        #expect(await EndToEnd.eventually { bobSeen.all.contains("incoming") })
        #expect(await EndToEnd.eventually { aliceSeen.all.contains("RINGING") })
        try await bob.accept(media: .audioOnly)
        #expect(await EndToEnd.eventually { aliceSeen.all.last == "IN_PROGRESS" && bobSeen.all.last == "IN_PROGRESS" })
        #expect(!bobSeen.all.contains { $0.hasPrefix("invalid") })
        await alice.stop(); await bob.stop(); a.cancel(); b.cancel()
    }

    @Test("a push for a call the caller cancelled surfaces as invalidPushCall cancelled, never as a ringing call")
    func cancelledPush() async throws {
        let sender = CapturingPushSender(policy: .whenOffline)
        let board = SignalingSwitchboard(pushSender: sender)
        let (alice, _, a) = Self.agent("alice", board)
        let (bob, bobSeen, b) = Self.agent("bob", board)
        try await alice.start()
        #expect(await EndToEnd.eventually { await alice.isRunning })
        _ = try await alice.call(to: "bob", media: .audioOnly)
        #expect(await EndToEnd.eventually { sender.count == 1 })
        try await alice.cancel()
        await bob.handlePushMessage(try #require(sender.last))
        #expect(await EndToEnd.eventually { bobSeen.all.contains("invalid cancelled") })
        #expect(!bobSeen.all.contains("incoming"))
        await alice.stop(); await bob.stop(); a.cancel(); b.cancel()
    }

    @Test("answered on another device: the push gives invalidPushCall answeredElsewhere")
    func answeredElsewhere() async throws {
        let sender = CapturingPushSender(policy: .always)
        let board = SignalingSwitchboard(pushSender: sender)
        let (alice, aliceSeen, a) = Self.agent("alice", board)
        let (tablet, tabletSeen, t) = Self.agent("bob", board)
        let (phone, phoneSeen, p) = Self.agent("bob", board)
        try await alice.start()
        try await tablet.start()
        #expect(await EndToEnd.eventually {
            let both = (await alice.isRunning, await tablet.isRunning)
            return both.0 && both.1
        })
        _ = try await alice.call(to: "bob", media: .audioOnly)
        #expect(await EndToEnd.eventually { sender.count == 1 && tabletSeen.all.contains("incoming") })
        try await tablet.accept(media: .audioOnly)
        #expect(await EndToEnd.eventually { aliceSeen.all.last == "IN_PROGRESS" })
        await phone.handlePushMessage(try #require(sender.last))
        #expect(await EndToEnd.eventually { phoneSeen.all.contains("invalid answeredElsewhere") })
        #expect(!phoneSeen.all.contains("incoming"))
        await alice.stop(); await tablet.stop(); await phone.stop(); a.cancel(); t.cancel(); p.cancel()
    }

    @Test("a forged signature, a push for another user and an expired push are refused without connecting")
    func refusedPushes() async throws {
        let board = SignalingSwitchboard()
        let (bob, bobSeen, b) = Self.agent("bob", board)
        func message(to user: String, expiresIn ms: Int64, secret: String = CallPushTests.secret) -> CallPushMessage {
            let body = PushInvitation(callId: "c1", from: "alice", to: user, media: .audioOnly, attachedData: [],
                                      expiresAt: Int64(Date().timeIntervalSince1970 * 1000) + ms, mode: .oneToOne).body()
            return CallPushMessage(body: body, signature: PushInvitation.signature(of: body, secret: secret))
        }
        await bob.handlePushMessage(message(to: "bob", expiresIn: 30_000, secret: "a forger's secret of enough bytes!!"))
        await bob.handlePushMessage(message(to: "carol", expiresIn: 30_000))
        await bob.handlePushMessage(message(to: "bob", expiresIn: -1))
        #expect(await EndToEnd.eventually { bobSeen.all.count == 3 })
        #expect(bobSeen.all == ["invalid badSignature", "invalid notForThisUser", "invalid expired"])
        let running = await bob.isRunning
        #expect(!running, "a refused push does not wake the client")
        await bob.stop(); b.cancel()
    }
}

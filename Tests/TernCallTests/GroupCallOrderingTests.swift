import Synchronization
import Testing
import TernCall
import TernCore
import TernSignaling

/// The agent reads the next signaling message only once the outputs of the last one are carried
/// out (`CallAgent.process`). Signaling in memory, peer connections real.
@Suite("Group call messages in order on the call agent", .serialized)
struct GroupCallOrderingTests {
    /// An in-memory connection whose `send` of an invite returns `delay` after the router took it:
    /// a signaling socket that is slow to report a write done, as on a loaded machine.
    final class SlowInviteTransport: SignalingTransport {
        let inner: InMemorySignalingTransport
        let delay: Duration
        init(switchboard: SignalingSwitchboard, delay: Duration) {
            inner = InMemorySignalingTransport(switchboard: switchboard)
            self.delay = delay
        }
        var incoming: AsyncStream<String> { inner.incoming }
        func send(_ text: String) async throws(SignalingTransportError) {
            try await inner.send(text)
            if text.contains(#""type":"invite""#) { try? await Task.sleep(for: delay) }
        }
        func close() async { await inner.close() }
    }

    /// Accepts every invite at once and records the agent's problems.
    final class Member: Sendable {
        let problems = Mutex<[String]>([])
        func watch(_ agent: CallAgent, accepting: Bool) -> Task<Void, Never> {
            Task {
                for await event in agent.events {
                    switch event {
                    case .call(.incomingCall) where accepting:
                        try? await agent.accept(media: .audioOnly)
                    case let .problem(_, text):
                        problems.withLock { $0.append(text) }
                    default:
                        break
                    }
                }
            }
        }
    }

    static func agent(_ user: String, _ board: SignalingSwitchboard, slowInvite: Duration? = nil) -> CallAgent {
        CallAgent(user: user, connect: {
            let transport: any SignalingTransport = slowInvite.map { SlowInviteTransport(switchboard: board, delay: $0) }
                ?? InMemorySignalingTransport(switchboard: board)
            let client = SignalingClient(transport: transport, options: EndToEnd.clientOptions)
            try await client.register(user: user, token: "")
            return client
        }, peerConfiguration: .loopback)
    }

    @Test("offers that arrive while the caller still sends its invite reach the legs their members update opened")
    func offersDuringTheCallersInviteAreApplied() async throws {
        let board = SignalingSwitchboard()
        let users = ["alice", "bob", "carol"]
        let agents = [Self.agent("alice", board, slowInvite: .milliseconds(800)), Self.agent("bob", board),
                      Self.agent("carol", board)]
        let members = users.map { _ in Member() }
        let watchers = zip(agents, members).enumerated().map { index, pair in pair.1.watch(pair.0, accepting: index > 0) }
        for agent in agents { try await agent.start() }
        // bob and carol accept, are listed in `members` and offer to alice while alice's
        // `call` is still suspended in its invite's send.
        _ = try await agents[0].call(to: ["bob", "carol"], media: .audioOnly)
        for (agent, user) in zip(agents, users) {
            let others = users.filter { $0 != user }
            #expect(await EndToEnd.eventually(seconds: 20) {
                guard let group = await agent.groupCall else { return false }
                return others.allSatisfy { group.legs[$0] == .connected }
            }, "\(user) has a connected leg to \(others)")
        }
        for (member, user) in zip(members, users) {
            #expect(member.problems.withLock { $0 }.isEmpty, "\(user)'s problems")
        }
        for agent in agents { await agent.stop() }
        watchers.forEach { $0.cancel() }
    }
}

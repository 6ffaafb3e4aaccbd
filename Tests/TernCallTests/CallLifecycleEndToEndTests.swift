import Synchronization
import Testing
import TernCall
import TernCore
import TernPeer
import TernSignaling
import TernSignalingClient
import TernSignalingServer

/// Every way a call can end, and a signaling connection that drops and comes back, end to end:
/// call agents with real peer connections through the real WebSocket server on 127.0.0.1.
@Suite("Call lifecycle through the real signaling server", .serialized)
struct CallLifecycleEndToEndTests {
    /// What one agent reported, recorded by a watcher task.
    final class Observer: Sendable {
        let states = Mutex<[String]>([])
        let reasons = Mutex<[String]>([])
        let clientStates = Mutex<[String]>([])
        let signalingStatuses = Mutex<[String]>([])
        let invites = Mutex<Int>(0)

        func watch(_ agent: CallAgent) -> Task<Void, Never> {
            Task {
                for await event in agent.events {
                    guard case let .call(output) = event else { continue }
                    switch output {
                    case let .stateChanged(change):
                        // The reason first: a test that waits for the state reads it next.
                        if let reason = change.reason { reasons.withLock { $0.append("\(reason)") } }
                        states.withLock { $0.append(change.state.rawValue) }
                    case .incomingCall:
                        invites.withLock { $0 += 1 }
                    case let .clientStateChanged(state):
                        clientStates.withLock { $0.append("\(state)") }
                    case let .signalingStatusChanged(_, _, status):
                        signalingStatuses.withLock { $0.append("\(status)") }
                    default:
                        break
                    }
                }
            }
        }

        var lastState: String? { states.withLock { $0.last } }
        var lastReason: String? { reasons.withLock { $0.last } }
        var lastClientState: String? { clientStates.withLock { $0.last } }
    }

    /// A server, agents on it and their observers; torn down by `finish()`.
    struct Rig {
        let server: SignalingServer
        let url: String
        var agents: [CallAgent] = []
        var watchers: [Task<Void, Never>] = []
        /// Each user's latest signaling connection, so a test can cut it.
        let connections = Connections()

        final class Connections: Sendable {
            let latest = Mutex<[String: SignalingClient]>([:])
            /// Closes `user`'s connection under its agent: to the server a dropped socket, to the
            /// agent a lost connection.
            func cut(_ user: String) async {
                await latest.withLock { $0[user] }?.close()
            }
        }

        static func start(port: Int = 0) async throws -> Rig {
            let server = SignalingServer(host: "127.0.0.1", port: port)
            let bound = try await server.start()
            return Rig(server: server, url: "ws://127.0.0.1:\(bound)/v1")
        }

        /// An agent that connects (and reconnects) by itself.
        mutating func agent(_ user: String, configuration: CallConfiguration = CallConfiguration())
            async throws -> (CallAgent, Observer) {
            let url = self.url
            let connections = self.connections
            let agent = CallAgent(user: user, connect: {
                let client = try await EndToEnd.connectedClient(user, url: url)
                connections.latest.withLock { $0[user] = client }
                return client
            },
                                  peerConfiguration: .loopback, configuration: configuration)
            let observer = Observer()
            watchers.append(observer.watch(agent))
            try await agent.start()
            agents.append(agent)
            return (agent, observer)
        }

        func finish() async {
            for agent in agents { await agent.stop() }
            watchers.forEach { $0.cancel() }
            await server.shutdown()
        }
    }

    /// alice calls bob and bob accepts: both IN_PROGRESS.
    private func connect(_ alice: CallAgent, _ aliceSeen: Observer, _ bob: CallAgent, _ bobSeen: Observer) async throws {
        let invitesBefore = bobSeen.invites.withLock { $0 }
        _ = try await alice.call(to: "bob", media: .audioOnly)
        #expect(await EndToEnd.eventually { bobSeen.invites.withLock { $0 } == invitesBefore + 1 })
        try await bob.accept(media: .audioOnly)
        #expect(await EndToEnd.eventually { aliceSeen.lastState == "IN_PROGRESS" && bobSeen.lastState == "IN_PROGRESS" })
    }

    @Test("cancel before answer: both sides end with reason cancelled")
    func cancelBeforeAnswer() async throws {
        var rig = try await Rig.start()
        let (alice, aliceSeen) = try await rig.agent("alice")
        let (_, bobSeen) = try await rig.agent("bob")
        _ = try await alice.call(to: "bob", media: .audioOnly)
        #expect(await EndToEnd.eventually { bobSeen.invites.withLock { $0 } == 1 && aliceSeen.lastState == "RINGING" })
        try await alice.cancel()
        #expect(await EndToEnd.eventually { aliceSeen.lastState == "ENDED" && bobSeen.lastState == "ENDED" })
        #expect(aliceSeen.lastReason == "cancelled")
        #expect(bobSeen.lastReason == "cancelled")
        await rig.finish()
    }

    @Test("nobody answers within the call's timeout: both sides end with reason noAnswer")
    func noAnswer() async throws {
        var rig = try await Rig.start()
        let (alice, aliceSeen) = try await rig.agent("alice")
        let (_, bobSeen) = try await rig.agent("bob")
        _ = try await alice.call(to: "bob", media: .audioOnly, timeout: .seconds(3))
        #expect(await EndToEnd.eventually { aliceSeen.lastState == "ENDED" && bobSeen.lastState == "ENDED" })
        #expect(aliceSeen.states.withLock { $0 } == ["RINGING", "ENDED"])
        #expect(aliceSeen.lastReason == "noAnswer")
        #expect(bobSeen.lastReason == "noAnswer")
        await rig.finish()
    }

    @Test("busy: a third party calling someone in a call ends busy; the call in progress goes on")
    func busyWhileInACall() async throws {
        var rig = try await Rig.start()
        let (alice, aliceSeen) = try await rig.agent("alice")
        let (bob, bobSeen) = try await rig.agent("bob")
        let (carol, carolSeen) = try await rig.agent("carol")
        try await connect(alice, aliceSeen, bob, bobSeen)
        let bobOnCall = await bob.isOnCall
        #expect(bobOnCall)
        _ = try await carol.call(to: "bob", media: .audioOnly)
        #expect(await EndToEnd.eventually { carolSeen.lastState == "ENDED" })
        #expect(carolSeen.lastReason == "busy")
        #expect(aliceSeen.lastState == "IN_PROGRESS" && bobSeen.lastState == "IN_PROGRESS")
        try await alice.hangUp()
        #expect(await EndToEnd.eventually { bobSeen.lastState == "ENDED" })
        await rig.finish()
    }

    @Test("incomingCalls, callStates and clientStates carry their part of the events, in order, with ids and txCodes")
    func filteredStreams() async throws {
        var rig = try await Rig.start()
        let (alice, aliceSeen) = try await rig.agent("alice")
        let (bob, bobSeen) = try await rig.agent("bob")
        let invites = Task { () -> [String] in
            var seen: [String] = []
            for await incoming in bob.incomingCalls {
                seen.append("\(incoming.invite.from ?? "") \(incoming.invite.attachedData.map { "\($0.dataName)=\($0.dataValue)" })")
                break
            }
            return seen
        }
        let aliceStates = Task { () -> [String] in
            var seen: [String] = []
            for await change in alice.callStates {
                seen.append(change.state.rawValue + (change.reason.map { "(\($0))" } ?? "") + " " + change.txCode)
                if change.state.rawValue == "ENDED" { break }
            }
            return seen
        }
        let callId = try await alice.call(to: "bob", media: .audioOnly,
                                          attachedData: [AttachedData(dataName: "processName", dataValue: "CustOnboarding")],
                                          txCode: "tx-7")
        #expect(await EndToEnd.eventually { bobSeen.invites.withLock { $0 } == 1 })
        try await bob.accept(media: .audioOnly)
        #expect(await EndToEnd.eventually { aliceSeen.lastState == "IN_PROGRESS" && bobSeen.lastState == "IN_PROGRESS" })
        try await alice.hangUp()
        #expect(await invites.value == ["alice [\"processName=CustOnboarding\"]"])
        #expect(await aliceStates.value == ["RINGING tx-7", "CONNECTING tx-7", "IN_PROGRESS tx-7", "ENDED(localHangUp) tx-7"])
        var clientStates: [String] = []
        for await state in alice.clientStates {
            clientStates.append("\(state)")
            if clientStates.contains("running") { break }
        }
        #expect(clientStates.contains("running"), "\(clientStates) (callId \(callId))")
        await rig.finish()
    }

    @Test("the caller hangs up: caller localHangUp, callee remoteHangUp")
    func callerHangsUp() async throws {
        var rig = try await Rig.start()
        let (alice, aliceSeen) = try await rig.agent("alice")
        let (bob, bobSeen) = try await rig.agent("bob")
        try await connect(alice, aliceSeen, bob, bobSeen)
        try await alice.hangUp()
        #expect(await EndToEnd.eventually { aliceSeen.lastState == "ENDED" && bobSeen.lastState == "ENDED" })
        #expect(aliceSeen.lastReason == "localHangUp")
        #expect(bobSeen.lastReason == "remoteHangUp")
        let aliceOnCall = await alice.isOnCall
        let bobStillOnCall = await bob.isOnCall
        let stillOnCall = aliceOnCall || bobStillOnCall
        #expect(!stillOnCall)
        await rig.finish()
    }

    @Test("two devices of the callee: the one that does not answer ends answeredElsewhere")
    func answeredElsewhere() async throws {
        var rig = try await Rig.start()
        let (alice, aliceSeen) = try await rig.agent("alice")
        let (bobPhone, phoneSeen) = try await rig.agent("bob")
        let (_, deskSeen) = try await rig.agent("bob")
        _ = try await alice.call(to: "bob", media: .audioOnly)
        #expect(await EndToEnd.eventually { phoneSeen.invites.withLock { $0 } == 1 && deskSeen.invites.withLock { $0 } == 1 })
        try await bobPhone.accept(media: .audioOnly)
        #expect(await EndToEnd.eventually { deskSeen.lastState == "ENDED" })
        #expect(deskSeen.lastReason == "answeredElsewhere")
        #expect(await EndToEnd.eventually { aliceSeen.lastState == "IN_PROGRESS" && phoneSeen.lastState == "IN_PROGRESS" })
        try await alice.hangUp()
        #expect(await EndToEnd.eventually { phoneSeen.lastState == "ENDED" })
        await rig.finish()
    }

    @Test("reject policy any: one device declines, the caller ends rejected and the other device rejectedElsewhere")
    func rejectedElsewhere() async throws {
        var rig = try await Rig.start()
        let (alice, aliceSeen) = try await rig.agent("alice")
        let (bobPhone, phoneSeen) = try await rig.agent("bob")
        let (_, deskSeen) = try await rig.agent("bob")
        _ = try await alice.call(to: "bob", media: .audioOnly, rejectPolicy: .any)
        #expect(await EndToEnd.eventually { phoneSeen.invites.withLock { $0 } == 1 && deskSeen.invites.withLock { $0 } == 1 })
        try await bobPhone.reject(reason: .declined)
        #expect(await EndToEnd.eventually { aliceSeen.lastState == "ENDED" && deskSeen.lastState == "ENDED" && phoneSeen.lastState == "ENDED" })
        #expect(aliceSeen.lastReason == "rejected")
        #expect(deskSeen.lastReason == "rejectedElsewhere")
        await rig.finish()
    }

    @Test("reject policy all (default): one device declining leaves the other ringing; it can still accept")
    func rejectPolicyAllKeepsRinging() async throws {
        var rig = try await Rig.start()
        let (alice, aliceSeen) = try await rig.agent("alice")
        let (bobPhone, phoneSeen) = try await rig.agent("bob")
        let (bobDesk, deskSeen) = try await rig.agent("bob")
        _ = try await alice.call(to: "bob", media: .audioOnly)
        #expect(await EndToEnd.eventually { phoneSeen.invites.withLock { $0 } == 1 && deskSeen.invites.withLock { $0 } == 1 })
        // The caller rings once a device said so (its RINGING arrives after the invites do).
        #expect(await EndToEnd.eventually { aliceSeen.lastState == "RINGING" && deskSeen.lastState == "RINGING" })
        try await bobPhone.reject(reason: .declined)
        #expect(await EndToEnd.eventually { phoneSeen.lastState == "ENDED" })
        #expect(deskSeen.lastState == "RINGING" && aliceSeen.lastState == "RINGING",
                "desk \(deskSeen.lastState ?? "-"), alice \(aliceSeen.lastState ?? "-")")
        try await bobDesk.accept(media: .audioOnly)
        #expect(await EndToEnd.eventually { aliceSeen.lastState == "IN_PROGRESS" && deskSeen.lastState == "IN_PROGRESS" })
        try await alice.hangUp()
        #expect(await EndToEnd.eventually { deskSeen.lastState == "ENDED" })
        await rig.finish()
    }

    @Test("a client's connection drops mid-call: the call stays IN_PROGRESS, the client reconnects, resumes it, and the hang-up still reaches the other side")
    func connectionDropResumesTheCall() async throws {
        var configuration = CallConfiguration()
        configuration.reconnectBackoff = [.milliseconds(200)]
        var rig = try await Rig.start()
        let (alice, aliceSeen) = try await rig.agent("alice", configuration: configuration)
        let (bob, bobSeen) = try await rig.agent("bob", configuration: configuration)
        try await connect(alice, aliceSeen, bob, bobSeen)

        await rig.connections.cut("bob")
        #expect(await EndToEnd.eventually { bobSeen.signalingStatuses.withLock { $0 } == ["reconnecting", "connected"] })
        #expect(bobSeen.clientStates.withLock { $0 }.suffix(3) == ["paused", "resuming", "running"])
        #expect(aliceSeen.lastState == "IN_PROGRESS" && bobSeen.lastState == "IN_PROGRESS")
        #expect(aliceSeen.signalingStatuses.withLock { $0 }.isEmpty)

        // Both directions of the resumed call carry signaling: an ICE restart (offer, answer,
        // candidates) from alice, then bob's hang-up.
        try await alice.restartICE()
        try await Task.sleep(for: .milliseconds(300))
        #expect(aliceSeen.lastState == "IN_PROGRESS" && bobSeen.lastState == "IN_PROGRESS")
        try await bob.hangUp()
        #expect(await EndToEnd.eventually { aliceSeen.lastState == "ENDED" && bobSeen.lastState == "ENDED" })
        #expect(aliceSeen.lastReason == "remoteHangUp")
        #expect(bobSeen.lastReason == "localHangUp")
        await rig.finish()
    }

    @Test("hanging up while the signaling connection is away: the call ends at once, the hang-up leaves after the resume and reaches the other side")
    func hangUpWhileAway() async throws {
        var configuration = CallConfiguration()
        // Long enough that bob is still away when the test hangs up on a loaded machine.
        configuration.reconnectBackoff = [.seconds(5)]
        var rig = try await Rig.start()
        let (alice, aliceSeen) = try await rig.agent("alice", configuration: configuration)
        let (bob, bobSeen) = try await rig.agent("bob", configuration: configuration)
        try await connect(alice, aliceSeen, bob, bobSeen)

        await rig.connections.cut("bob")
        #expect(await EndToEnd.eventually { bobSeen.signalingStatuses.withLock { $0 } == ["reconnecting"] })
        try await bob.hangUp()
        #expect(await EndToEnd.eventually { bobSeen.lastState == "ENDED" })
        #expect(bobSeen.lastReason == "localHangUp")
        #expect(bobSeen.signalingStatuses.withLock { $0 } == ["reconnecting"], "still away when the call ended")
        // Well before the server's 30 s resume window would end the call for alice anyway.
        #expect(await EndToEnd.eventually(seconds: 20) { aliceSeen.lastState == "ENDED" })
        #expect(aliceSeen.lastReason == "remoteHangUp")
        await rig.finish()
    }

    @Test("the server restarts mid-call (its state is gone): the resume gets callGone, the call ends signalingLost, and the clients call again")
    func signalingDropAndReconnect() async throws {
        var configuration = CallConfiguration()
        configuration.reconnectBackoff = [.milliseconds(200), .milliseconds(400), .milliseconds(800)]
        configuration.maxReconnectAttempts = 60
        var rig = try await Rig.start()
        let port = try #require(Int(rig.url.split(separator: ":").last?.split(separator: "/").first ?? ""))
        let (alice, aliceSeen) = try await rig.agent("alice", configuration: configuration)
        let (bob, bobSeen) = try await rig.agent("bob", configuration: configuration)
        try await connect(alice, aliceSeen, bob, bobSeen)

        await rig.server.shutdown()
        #expect(await EndToEnd.eventually { aliceSeen.lastState == "ENDED" && bobSeen.lastState == "ENDED" })
        #expect(aliceSeen.lastReason == "signalingLost")
        #expect(bobSeen.lastReason == "signalingLost")
        #expect(await EndToEnd.eventually { aliceSeen.clientStates.withLock { $0.contains("paused") } })
        // While paused a call is refused with a clear error, not lost.
        await #expect(throws: CallError.self) { _ = try await alice.call(to: "bob", media: .audioOnly) }

        // The same address comes back: both clients resume and are running again.
        let revived = SignalingServer(host: "127.0.0.1", port: port)
        _ = try await revived.start()
        #expect(await EndToEnd.eventually { aliceSeen.lastClientState == "running" && bobSeen.lastClientState == "running" })
        #expect(aliceSeen.clientStates.withLock { $0 }.contains("resuming"))

        try await connect(alice, aliceSeen, bob, bobSeen)
        try await bob.hangUp()
        #expect(await EndToEnd.eventually { aliceSeen.lastState == "ENDED" && bobSeen.lastState == "ENDED" })
        #expect(aliceSeen.lastReason == "remoteHangUp")
        await rig.finish()
        await revived.shutdown()
    }
}

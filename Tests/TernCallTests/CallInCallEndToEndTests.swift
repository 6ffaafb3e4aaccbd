import Synchronization
import Testing
import TernCall
import TernCore
import TernPeer
import TernSignaling
import TernSignalingClient
import TernSignalingServer

/// In-call features end to end through the real server and real peer connections: manage-call
/// messages both ways, START_OPERATION pausing the remote camera and turnBackToVideoCall resuming
/// it, and video added to an audio call (one way), removed, and a request denied.
@Suite("In-call events and video through the real signaling server", .serialized)
struct CallInCallEndToEndTests {
    final class Observer: Sendable {
        let states = Mutex<[String]>([])
        let callIds = Mutex<[String]>([])
        let events = Mutex<[ManageCallEvent]>([])
        let videoRequests = Mutex<[VideoMode]>([])
        let videoAnswers = Mutex<[String]>([])
        let videoUpdates = Mutex<[VideoMode]>([])

        func watch(_ agent: CallAgent) -> Task<Void, Never> {
            Task {
                for await event in agent.events {
                    guard case let .call(output) = event else { continue }
                    switch output {
                    case let .stateChanged(change):
                        states.withLock { $0.append(change.state.rawValue) }
                        callIds.withLock { if !$0.contains(change.callId) { $0.append(change.callId) } }
                    case let .manageCallEvent(_, _, event):
                        events.withLock { $0.append(event) }
                    case let .videoRequested(_, _, mode):
                        videoRequests.withLock { $0.append(mode) }
                    case let .videoRequestAnswered(_, _, result):
                        videoAnswers.withLock { $0.append("\(result)") }
                    case let .videoChannelsUpdated(_, _, direction):
                        videoUpdates.withLock { $0.append(direction) }
                    default:
                        break
                    }
                }
            }
        }

        var lastState: String? { states.withLock { $0.last } }
        var callId: String? { callIds.withLock { $0.last } }
        func eventTypes() -> [ManageCallEventType] { events.withLock { $0.map(\.type) } }
    }

    /// Sends until the manage-call channel has opened (sendMessage fails clearly before).
    private func sendWhenOpen(_ agent: CallAgent, _ data: [AttachedData]) async -> Bool {
        for _ in 0..<500 {
            do {
                try await agent.sendMessage(eventData: data)
                return true
            } catch {
                try? await Task.sleep(for: .milliseconds(10))
            }
        }
        return false
    }

    @Test("sendMessage both ways; START_OPERATION pauses the callee's camera, turnBackToVideoCall resumes it")
    func messagesAndOperations() async throws {
        let server = SignalingServer(host: "127.0.0.1", port: 0)
        let url = "ws://127.0.0.1:\(try await server.start())/v1"
        let alice = try await EndToEnd.agent("alice", url: url), bob = try await EndToEnd.agent("bob", url: url)
        let aliceSeen = Observer(), bobSeen = Observer()
        let watchers = [aliceSeen.watch(alice), bobSeen.watch(bob)]
        defer { watchers.forEach { $0.cancel() } }

        let video = MediaOptions(audio: true, video: true)
        _ = try await alice.call(to: "bob", media: video)
        #expect(await EndToEnd.eventually { bobSeen.lastState == "RINGING" })
        try await bob.accept(media: video)
        #expect(await EndToEnd.eventually { aliceSeen.lastState == "IN_PROGRESS" && bobSeen.lastState == "IN_PROGRESS" })
        let bobCall = try #require(bobSeen.callId)

        #expect(await sendWhenOpen(alice, [AttachedData(dataName: "processName", dataValue: "CustOnboarding")]))
        #expect(await sendWhenOpen(bob, [AttachedData(dataName: "reply", dataValue: "ok"), AttachedData(dataName: "step", dataValue: "2")]))
        #expect(await EndToEnd.eventually { bobSeen.eventTypes().contains(.messageReceived) && aliceSeen.eventTypes().contains(.messageReceived) })
        #expect(aliceSeen.events.withLock { $0.first { $0.type == .messageReceived }?.data }
            == [AttachedData(dataName: "reply", dataValue: "ok"), AttachedData(dataName: "step", dataValue: "2")])

        #expect(await bob.senders(callId: bobCall).video?.isEnabled == true)
        try await alice.startOperation(name: "START_OCR")
        #expect(await EndToEnd.eventually { bobSeen.eventTypes().contains(.startOperation) })
        #expect(bobSeen.events.withLock { $0.first { $0.type == .startOperation }?.data.first?.dataValue } == "START_OCR")
        #expect(await EndToEnd.eventually { await bob.senders(callId: bobCall).video?.isEnabled == false },
                "the callee's camera pauses while the operation runs")

        try await alice.turnBackToVideoCall()
        #expect(await EndToEnd.eventually { bobSeen.eventTypes().contains(.turnBackToVideoCall) })
        #expect(await EndToEnd.eventually { await bob.senders(callId: bobCall).video?.isEnabled == true }, "the camera resumes")

        try await alice.hangUp()
        #expect(await EndToEnd.eventually { bobSeen.lastState == "ENDED" })
        await alice.stop()
        await bob.stop()
        await server.shutdown()
    }

    @Test("audio call: video added one way (callee receives only), removed, then a second request denied")
    func videoEscalation() async throws {
        let server = SignalingServer(host: "127.0.0.1", port: 0)
        let url = "ws://127.0.0.1:\(try await server.start())/v1"
        let alice = try await EndToEnd.agent("alice", url: url), bob = try await EndToEnd.agent("bob", url: url)
        let aliceSeen = Observer(), bobSeen = Observer()
        let watchers = [aliceSeen.watch(alice), bobSeen.watch(bob)]
        defer { watchers.forEach { $0.cancel() } }

        _ = try await alice.call(to: "bob", media: .audioOnly)
        #expect(await EndToEnd.eventually { bobSeen.lastState == "RINGING" })
        try await bob.accept(media: .audioOnly)
        #expect(await EndToEnd.eventually { aliceSeen.lastState == "IN_PROGRESS" && bobSeen.lastState == "IN_PROGRESS" })
        // The request travels on manage-call: wait until it is open.
        #expect(await sendWhenOpen(alice, [AttachedData(dataName: "hello", dataValue: "1")]))

        try await alice.setVideoMode(.sendReceive)
        #expect(await EndToEnd.eventually { bobSeen.videoRequests.withLock { $0 } == [.sendReceive] })
        try await bob.acceptVideo(mode: .receiveOnly)
        #expect(await EndToEnd.eventually { aliceSeen.videoAnswers.withLock { $0 } == ["accepted \(VideoMode.sendOnly)"] })
        #expect(await EndToEnd.eventually { aliceSeen.videoUpdates.withLock { $0.last } == .sendOnly && bobSeen.videoUpdates.withLock { $0.last } == .receiveOnly })

        try await alice.setVideoMode(.disabled)
        #expect(await EndToEnd.eventually { aliceSeen.videoUpdates.withLock { $0.last } == .disabled && bobSeen.videoUpdates.withLock { $0.last } == .disabled })

        try await alice.setVideoMode(.sendReceive)
        #expect(await EndToEnd.eventually { bobSeen.videoRequests.withLock { $0.count } == 2 })
        try await bob.denyVideo()
        #expect(await EndToEnd.eventually { aliceSeen.videoAnswers.withLock { $0.last } == "denied" })
        #expect(aliceSeen.lastState == "IN_PROGRESS" && bobSeen.lastState == "IN_PROGRESS", "the call goes on")

        try await bob.hangUp()
        #expect(await EndToEnd.eventually { aliceSeen.lastState == "ENDED" })
        await alice.stop()
        await bob.stop()
        await server.shutdown()
    }
}

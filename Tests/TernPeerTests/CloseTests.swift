import Synchronization
import Testing
import TernPeer
import TernSCTP

/// `close()` from either side of a live call: the other side learns it from the wire
/// (DTLS close_notify, SCTP abort), not from a shared object.
@Suite("Peer connection closed from either side", .serialized)
struct CloseTests {
    enum Side: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case caller, callee
        var testDescription: String { rawValue }
    }

    @Test("the other side sees its data channel close and its connection become closed", arguments: Side.allCases)
    func closeFrom(_ closing: Side) async throws {
        let pair = try PeerPair()
        defer { pair.close() }
        let calleeChannel = Mutex<DataChannel?>(nil)
        let callerStates = Mutex<[PeerConnectionState]>([])
        let calleeStates = Mutex<[PeerConnectionState]>([])
        let tasks = pair.startTrickle(onCaller: { event in
            if case let .connectionStateChanged(state) = event { callerStates.withLock { $0.append(state) } }
        }, onCallee: { event in
            if case let .dataChannel(channel) = event { calleeChannel.withLock { $0 = channel } }
            if case let .connectionStateChanged(state) = event { calleeStates.withLock { $0.append(state) } }
        })
        defer { tasks.forEach { $0.cancel() } }

        let callerChannel = try pair.caller.createDataChannel("closing")
        try await pair.negotiate()
        #expect(await pair.bothConnected(), "\(pair.diagnosis)")
        #expect(await eventually { calleeChannel.withLock { $0 }?.readyState == .open })
        let remoteChannel = try #require(calleeChannel.withLock { $0 })
        #expect(await eventually { callerChannel.readyState == .open })

        let (closer, other) = closing == .caller ? (pair.caller, pair.callee) : (pair.callee, pair.caller)
        let (closerChannel, otherChannel) = closing == .caller ? (callerChannel, remoteChannel) : (remoteChannel, callerChannel)
        let otherClosed = Task { () -> Bool in
            for await event in otherChannel.events { if case .closed = event { return true } }
            return false
        }
        closer.close()

        #expect(closer.connectionState == .closed)
        #expect(closer.signalingState == .closed)
        #expect(closerChannel.readyState == .closed)
        #expect(await eventually { otherChannel.readyState == .closed }, "\(pair.diagnosis)")
        #expect(await otherClosed.value)
        #expect(await eventually { other.connectionState == .closed }, "\(pair.diagnosis)")  // DTLS close_notify
        // ...and says so with a `connectionStateChanged` event.
        #expect(await eventually {
            (closing == .caller ? calleeStates.withLock { $0.last } : callerStates.withLock { $0.last }) == other.connectionState
        })
        #expect(throws: PeerConnectionError.self) { try otherChannel.send("after close") }
    }
}

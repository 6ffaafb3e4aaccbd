import Testing
import TernPeer
import TernSDP

/// Hold and resume by direction (RFC 3264 §8.4; W3C `direction` / `currentDirection`).
@Suite("Peer connection hold and resume", .serialized)
struct HoldResumeTests {
    @Test("sendonly then inactive stops the held directions, sendrecv brings both tones back")
    func holdThenResume() async throws {
        let pair = try PeerPair()
        defer { pair.close() }
        let atCaller = TrackCollector(), atCallee = TrackCollector()
        let tasks = pair.startTrickle(onCaller: atCaller.observe, onCallee: atCallee.observe)
        defer { tasks.forEach { $0.cancel() }; atCaller.stop(); atCallee.stop() }

        let callerAudio = try pair.caller.addTransceiver(.audio, direction: .sendrecv)
        let calleeAudio = try pair.callee.addTransceiver(.audio, direction: .sendrecv)
        try await pair.negotiate()
        #expect(await pair.bothConnected(), "\(pair.diagnosis)")
        #expect(callerAudio.currentDirection == .sendrecv && calleeAudio.currentDirection == .sendrecv)
        let callerPump = MediaPump(audio: callerAudio.sender, frequency: 440)
        let calleePump = MediaPump(audio: calleeAudio.sender, frequency: 660)
        defer { callerPump.stop(); calleePump.stop() }
        #expect(await eventually { atCallee.track(.audio).flatMap { atCallee.tone(on: $0) } == 440 })
        #expect(await eventually { atCaller.track(.audio).flatMap { atCaller.tone(on: $0) } == 660 })
        let fromCaller = try #require(atCallee.track(.audio))
        let fromCallee = try #require(atCaller.track(.audio))

        // The caller holds: sendonly, so the callee answers recvonly and stops sending.
        try callerAudio.setDirection(.sendonly)
        try await pair.negotiate()
        #expect(callerAudio.currentDirection == .sendonly)
        #expect(calleeAudio.currentDirection == .recvonly)
        #expect(await receivesNothing(fromCallee, while: calleeAudio.sender))
        #expect(await receivesMore(fromCaller))

        // Both directions held.
        try callerAudio.setDirection(.inactive)
        try await pair.negotiate()
        #expect(callerAudio.currentDirection == .inactive && calleeAudio.currentDirection == .inactive)
        #expect(await receivesNothing(fromCaller, while: callerAudio.sender))
        #expect(await receivesNothing(fromCallee, while: calleeAudio.sender, settle: 0))

        // Resume: both directions flow again and carry the right tones.
        try callerAudio.setDirection(.sendrecv)
        try await pair.negotiate()
        #expect(callerAudio.currentDirection == .sendrecv && calleeAudio.currentDirection == .sendrecv)
        atCaller.resetAudio()
        atCallee.resetAudio()
        #expect(await receivesMore(fromCaller, count: 50))
        #expect(await receivesMore(fromCallee, count: 50))
        #expect(await eventually { atCallee.tone(on: fromCaller) == 440 })
        #expect(await eventually { atCaller.tone(on: fromCallee) == 660 })
        #expect(atCaller.tracks(.audio).count == 1 && atCallee.tracks(.audio).count == 1)
    }
}

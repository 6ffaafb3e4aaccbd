import Testing
import TernPeer
import TernSDP

/// Renegotiation on a live call (RFC 9429 §5.2.2, §5.3.2): an m-section added, then removed.
@Suite("Peer connection renegotiation: video added and removed", .serialized)
struct RenegotiationTests {
    @Test("video added to an audio-only call decodes in order, and after it is removed the tone keeps arriving")
    func videoAddedThenRemoved() async throws {
        let pair = try PeerPair()
        defer { pair.close() }
        let received = TrackCollector()
        let tasks = pair.startTrickle(onCallee: received.observe)
        defer { tasks.forEach { $0.cancel() }; received.stop() }

        let audio = try pair.caller.addTransceiver(.audio, direction: .sendonly)
        try await pair.negotiate()
        #expect(await pair.bothConnected(), "\(pair.diagnosis)")
        let pump = MediaPump(audio: audio.sender, frequency: 440)
        defer { pump.stop() }
        #expect(await eventually { received.track(.audio).flatMap { received.tone(on: $0) } == 440 })
        let audioTrack = try #require(received.track(.audio))

        // Add video: a second m-section in the same BUNDLE transport.
        let video = try pair.caller.addTransceiver(.video, direction: .sendonly)
        try await pair.negotiate()
        #expect(video.currentDirection == .sendonly)
        #expect(pair.callee.signalingState == .stable && pair.caller.signalingState == .stable)
        pump.setVideo(video.sender)
        #expect(await eventually { received.track(.video).map { received.counters(on: $0).count >= 25 } ?? false })
        let videoTrack = try #require(received.track(.video))
        let counters = received.counters(on: videoTrack)
        #expect(strictlyIncreasing(counters), "\(counters)")
        #expect(received.tone(on: audioTrack) == 440)

        // Remove video: the stopped transceiver's section is rejected (port 0).
        try video.stop()
        try await pair.negotiate()
        #expect(pair.caller.localDescription?.sdp.contains("m=video 0 ") == true)
        #expect(await receivesNothing(videoTrack, while: video.sender))
        let countersAfterRemoval = received.counters(on: videoTrack)
        #expect(strictlyIncreasing(countersAfterRemoval))

        // Audio never stopped: fresh audio still carries the caller's tone.
        received.resetAudio()
        #expect(await receivesMore(audioTrack, count: 50))
        #expect(await eventually { received.tone(on: audioTrack) == 440 })
        #expect(pair.caller.connectionState == .connected && pair.callee.connectionState == .connected)
    }
}

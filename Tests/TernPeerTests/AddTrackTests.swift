import Testing
import TernPeer
import TernSDP

/// W3C `addTrack` / `removeTrack` on real peer connections over loopback.
@Suite("Peer connection addTrack and removeTrack", .serialized)
struct AddTrackTests {
    private func sections(_ sdp: String, _ kind: String) -> Int {
        sdp.split(separator: "\r\n").filter { $0.hasPrefix("m=\(kind) ") }.count
    }

    @Test("an answerer's addTrack after the offer answers the offered section sendrecv; removeTrack makes it recvonly")
    func answererAddsTrackToOfferedSection() async throws {
        let pair = try PeerPair()
        defer { pair.close() }
        let atCaller = TrackCollector(), atCallee = TrackCollector()
        let tasks = pair.startTrickle(onCaller: atCaller.observe, onCallee: atCallee.observe)
        defer { tasks.forEach { $0.cancel() }; atCaller.stop(); atCallee.stop() }

        let callerMic = try pair.caller.addTrack(.audio)
        let offer = try await pair.caller.createOffer()
        try await pair.caller.setLocalDescription(offer)
        try await pair.callee.setRemoteDescription(offer)
        // The callee adds its microphone only now, as a browser app does in `ontrack`/after SRD.
        let calleeMic = try pair.callee.addTrack(.audio, trackId: "mic", streamId: "callee-stream")
        let answer = try await pair.callee.createAnswer()
        #expect(sections(answer.sdp, "audio") == 1, "the offered section is reused, not a new one added")
        #expect(answer.sdp.contains("a=sendrecv"))
        #expect(answer.sdp.contains("a=msid:callee-stream mic"))
        #expect(answer.sdp.contains("a=ssrc:\(calleeMic.ssrc) "))
        try await pair.callee.setLocalDescription(answer)
        try await pair.caller.setRemoteDescription(answer)
        #expect(await pair.bothConnected(), "\(pair.diagnosis)")

        let callerPump = MediaPump(audio: callerMic, frequency: 440)
        let calleePump = MediaPump(audio: calleeMic, frequency: 660)
        defer { callerPump.stop(); calleePump.stop() }
        #expect(await eventually { atCaller.track(.audio).flatMap { atCaller.tone(on: $0) } == 660 })
        #expect(await eventually { atCallee.track(.audio).flatMap { atCallee.tone(on: $0) } == 440 })
        let fromCallee = try #require(atCaller.track(.audio))
        let fromCaller = try #require(atCallee.track(.audio))

        // removeTrack: the callee's frames are dropped at once; the next exchange makes the
        // section recvonly on its side, and the caller's audio keeps arriving.
        try pair.callee.removeTrack(calleeMic)
        #expect(await receivesNothing(fromCallee, while: calleeMic))
        try await pair.negotiate()
        let current = try #require(pair.callee.localDescription?.sdp)
        #expect(current.contains("a=recvonly"), "the callee's answer no longer sends")
        #expect(await receivesMore(fromCaller))
        // A sender this connection did not create is refused.
        #expect(throws: PeerConnectionError.self) { try pair.callee.removeTrack(callerMic) }
    }

    @Test("addTrack on an offerer adds a sendrecv section per track; a removed sender's section is not reused")
    func offererAddsSections() async throws {
        let peer = try PeerConnection(configuration: .loopback)
        defer { peer.close() }
        let first = try peer.addTrack(.audio)
        _ = try peer.addTrack(.video)
        let second = try peer.addTrack(.audio)
        #expect(first.ssrc != second.ssrc)
        try peer.removeTrack(first)
        _ = try peer.addTrack(.audio)
        let offer = try await peer.createOffer()
        #expect(sections(offer.sdp, "audio") == 3)
        #expect(sections(offer.sdp, "video") == 1)
        #expect(offer.sdp.components(separatedBy: "a=recvonly").count == 2, "only the removed track's section stops sending")
    }

    @Test("a track added to a remote offer's section survives a rollback of that offer")
    func addTrackSurvivesRollback() async throws {
        let caller = try PeerConnection(configuration: .loopback)
        let callee = try PeerConnection(configuration: .loopback)
        defer { caller.close(); callee.close() }
        _ = try caller.addTrack(.audio)
        let offer = try await caller.createOffer()
        try await callee.setRemoteDescription(offer)
        let mic = try callee.addTrack(.audio, trackId: "mic")
        try await callee.setRemoteDescription(JSEPDescription(type: .rollback, sdp: ""))
        let own = try await callee.createOffer()
        #expect(sections(own.sdp, "audio") == 1)
        #expect(own.sdp.contains("a=ssrc:\(mic.ssrc) "), "the rolled-back section's track is offered")
        #expect(own.sdp.contains("a=sendrecv"))
    }
}

import Synchronization
import Testing
import TernPeer
import TernSCTP
import TernSDP

/// ICE restart on a live call (RFC 8445 §9, RFC 9429 §5.2.1 / §5.3.1): new credentials both
/// ways, the call stays up and media and data keep flowing.
@Suite("Peer connection ICE restart mid-call", .serialized)
struct ICERestartTests {
    @Test("restartICE, a new offer/answer: new ufrags both ways, still connected, audio and data channel continue")
    func restartMidCall() async throws {
        let pair = try PeerPair()
        defer { pair.close() }
        let received = TrackCollector()
        let remoteChannel = Mutex<DataChannel?>(nil)
        let tasks = pair.startTrickle(onCallee: { event in
            received.observe(event)
            if case let .dataChannel(channel) = event { remoteChannel.withLock { $0 = channel } }
        })
        defer { tasks.forEach { $0.cancel() }; received.stop() }

        let audio = try pair.caller.addTransceiver(.audio, direction: .sendonly)
        let channel = try pair.caller.createDataChannel("during-restart")
        try await pair.negotiate()
        #expect(await pair.bothConnected(), "\(pair.diagnosis)")
        let pump = MediaPump(audio: audio.sender, frequency: 880)
        defer { pump.stop() }
        #expect(await eventually { received.track(.audio).flatMap { received.tone(on: $0) } == 880 })
        let track = try #require(received.track(.audio))
        #expect(await eventually { remoteChannel.withLock { $0 }?.readyState == .open })
        let remote = try #require(remoteChannel.withLock { $0 })
        let messages = MessageLog(remote)
        defer { messages.stop() }
        try channel.send("before restart")
        #expect(await eventually { messages.received == [.string("before restart")] })

        let callerUfrag = try #require(pair.caller.localDescription.flatMap(ufrag(in:)))
        let calleeUfrag = try #require(pair.callee.localDescription.flatMap(ufrag(in:)))
        pair.caller.restartICE()
        try await pair.negotiate()
        let newCallerUfrag = try #require(pair.caller.localDescription.flatMap(ufrag(in:)))
        let newCalleeUfrag = try #require(pair.callee.localDescription.flatMap(ufrag(in:)))
        #expect(newCallerUfrag != callerUfrag)
        #expect(newCalleeUfrag != calleeUfrag)
        #expect(pair.callee.remoteDescription.flatMap(ufrag(in:)) == newCallerUfrag)

        // Both agents restarted, took the peer's new credentials and connected again.
        #expect(await eventually { restartedAndReconnected(pair.caller, peerUfrag: newCalleeUfrag) }, "\(pair.diagnosis)")
        #expect(await eventually { restartedAndReconnected(pair.callee, peerUfrag: newCallerUfrag) }, "\(pair.diagnosis)")
        #expect(await pair.bothConnected(), "\(pair.diagnosis)")

        // Media and data continue after the restart.
        received.resetAudio()
        #expect(await receivesMore(track, count: 50))
        #expect(await eventually { received.tone(on: track) == 880 })
        try channel.send("after restart")
        #expect(await eventually { messages.received == [.string("before restart"), .string("after restart")] })
    }

    /// The `a=ice-ufrag` of a description.
    private func ufrag(in description: JSEPDescription) -> String? {
        description.sdp.split(separator: "\r\n").first { $0.hasPrefix("a=ice-ufrag:") }
            .map { String($0.dropFirst("a=ice-ufrag:".count)) }
    }

    /// Whether the trace shows a restart, then the peer's new credentials, then a connected state.
    private func restartedAndReconnected(_ peer: PeerConnection, peerUfrag: String) -> Bool {
        guard let entries = peer.iceTrace?.entries,
              let restart = entries.lastIndex(where: { if case .restarted = $0.event { true } else { false } })
        else { return false }
        let after = entries[restart...]
        guard let credentials = after.firstIndex(where: {
            if case let .remoteCredentialsSet(ufrag) = $0.event { ufrag == peerUfrag } else { false }
        }) else { return false }
        return entries[credentials...].contains {
            if case let .stateChanged(state, _) = $0.event { state == .connected || state == .completed } else { false }
        }
    }
}

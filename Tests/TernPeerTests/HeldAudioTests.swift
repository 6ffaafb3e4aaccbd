import Synchronization
import Testing
import TernMedia
import TernPeer

/// An audio frame captured while the transport is still connecting is sent the moment DTLS
/// connects (time to first audio no longer waits for the next 20 ms capture tick); a frame
/// older than `RTPSender.heldAudioLifetime` is not.
@Suite("Audio held until the transport connects", .serialized)
struct HeldAudioTests {
    /// The callee's remote tracks, and how many audio frames they received in all.
    final class Tracks: Sendable {
        private let list = Mutex<[RemoteTrack]>([])
        func observe(_ event: PeerConnectionEvent) {
            if case let .track(track) = event { list.withLock { $0.append(track) } }
        }
        var framesReceived: Int { list.withLock { $0.reduce(0) { $0 + $1.framesReceived } } }
    }

    @Test("one frame sent while the transport connects reaches the peer with no frame after it")
    func frameCapturedWhileConnectingIsSentOnConnect() async throws {
        let pair = try PeerPair()
        defer { pair.close() }
        let tracks = Tracks()
        let tasks = pair.startTrickle(onCallee: tracks.observe)
        defer { tasks.forEach { $0.cancel() } }
        let audio = try pair.caller.addTransceiver(.audio, direction: .sendonly)
        try await pair.negotiate()
        var tone = SineToneSource(frequency: 440)
        let pushed = ContinuousClock.now
        let connectedAlready = pair.caller.connectionState == .connected
        try audio.sender.send(audio: tone.nextFrame())  // the only frame this test sends
        #expect(await eventually { pair.caller.connectionState == .connected }, "\(pair.diagnosis)")
        let waited = ContinuousClock.now - pushed
        if connectedAlready || waited <= RTPSender.heldAudioLifetime {
            // Sent at once, or held and sent at connect: either way exactly one frame arrives.
            #expect(await eventually { audio.sender.framesSent == 1 })
            #expect(audio.sender.framesDropped == 0)
            #expect(await eventually { tracks.framesReceived == 1 })
        } else {
            // The connection took longer than a held frame may wait: dropped, as a stale one is.
            #expect(audio.sender.framesSent + audio.sender.framesDropped == 1)
        }
    }

    @Test("a frame older than the hold lifetime when the transport connects is dropped, not sent")
    func staleFrameIsNotSent() async throws {
        let pair = try PeerPair()
        defer { pair.close() }
        let tracks = Tracks()
        let tasks = pair.startTrickle(onCallee: tracks.observe)
        defer { tasks.forEach { $0.cancel() } }
        let audio = try pair.caller.addTransceiver(.audio, direction: .sendonly)
        var tone = SineToneSource(frequency: 440)
        try audio.sender.send(audio: tone.nextFrame())  // before any transport exists
        try await Task.sleep(for: RTPSender.heldAudioLifetime * 3)
        try await pair.negotiate()
        #expect(await eventually { pair.caller.connectionState == .connected && pair.callee.connectionState == .connected },
                "\(pair.diagnosis)")
        try await Task.sleep(for: .milliseconds(300))
        #expect(audio.sender.framesSent == 0 && audio.sender.framesDropped == 1)
        #expect(tracks.framesReceived == 0)
    }
}

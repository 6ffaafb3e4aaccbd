import Synchronization
import Testing
import TernMedia
import TernPeer
import TernSDP

/// A remote track's encoded frames (recording or forwarding without re-encoding), over real
/// peer connections on loopback.
@Suite("Remote track encoded frames", .serialized)
struct EncodedFramesTests {
    /// Opens the encoded stream of the first remote video track and keeps its frames.
    final class EncodedCollector: Sendable {
        let frames = Mutex<[EncodedVideoFrame]>([])
        let track = Mutex<RemoteTrack?>(nil)
        /// Frames the track decoded before the encoded stream was opened (the `.track` event is
        /// handled a little after the stream starts; on a slow machine a frame may get there first).
        let decodedBeforeOpening = Mutex(0)
        let reader = Mutex<Task<Void, Never>?>(nil)

        func observe(_ event: PeerConnectionEvent) {
            guard case let .track(track) = event, track.info.kind == .video else { return }
            self.track.withLock { $0 = track }
            let stream = track.encodedFrames(decoding: false)
            decodedBeforeOpening.withLock { $0 = track.framesDecoded }
            reader.withLock { $0 = Task { [weak self] in
                for await case let .video(frame) in stream { self?.frames.withLock { $0.append(frame) } }
            } }
        }
    }

    @Test("encoded VP8 frames arrive starting with a keyframe, decode in order elsewhere, and the track stops decoding")
    func encodedVideoFramesWithoutDecoding() async throws {
        let pair = try PeerPair()
        defer { pair.close() }
        let collector = EncodedCollector()
        let tasks = pair.startTrickle(onCallee: collector.observe)
        defer { tasks.forEach { $0.cancel() }; collector.reader.withLock { $0?.cancel() } }
        let video = try pair.caller.addTransceiver(.video, direction: .sendonly)
        try await pair.negotiate()
        #expect(await pair.bothConnected(), "\(pair.diagnosis)")
        let pump = MediaPump(audio: nil, video: video.sender, frequency: 440)
        defer { pump.stop() }
        // The keyframe asked for when the encoded stream opened, and what follows it.
        #expect(await eventually { collector.frames.withLock { $0.count } >= 40 && collector.frames.withLock { $0.contains(where: \.isKeyframe) } })
        let received = collector.frames.withLock { $0 }
        let fromKeyframe = Array(received.drop { !$0.isKeyframe })
        let decoder = try VP8Decoder()
        var counters: [UInt16] = []
        for frame in fromKeyframe {
            if let picture = try decoder.decode(frame), let counter = TestPatternReader.counter(in: picture) {
                counters.append(counter)
            }
        }
        #expect(counters.count >= fromKeyframe.count - 1, "every frame from the keyframe on decodes: \(counters.count) of \(fromKeyframe.count)")
        #expect(strictlyIncreasing(counters))
        let track = try #require(collector.track.withLock { $0 })
        #expect(track.framesReceived >= received.count)
        #expect(track.framesDecoded == collector.decodedBeforeOpening.withLock { $0 }, "decoding: false leaves the decoder off")
    }
}

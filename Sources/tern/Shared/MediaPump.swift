import TernMedia
import TernPeer

/// Feeds synthetic media into a call's senders in real time: a 20 ms tone frame every 20 ms and
/// a test-pattern video frame every 33 ms, until cancelled.
enum MediaPump {
    /// The test pattern's size in pixels (even, 16…1920 × 16…1080).
    struct VideoSize: Equatable {
        var width: Int
        var height: Int
        static let `default` = VideoSize(width: 320, height: 240)

        /// `WxH`, e.g. `640x480`; nil when it is not an even size within the bounds.
        init?(parsing text: String) {
            let parts = text.lowercased().split(separator: "x")
            guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
                  (16...1920).contains(width), (16...1080).contains(height), width % 2 == 0, height % 2 == 0 else { return nil }
            self.init(width: width, height: height)
        }

        init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }
    }

    /// Starts pumping `participant`'s tone and test pattern into its call's senders; cancel to stop.
    /// The call's senders are looked up again every 250 ms, so a video sender that a mid-call
    /// renegotiation adds (either side's request) is fed too.
    static func start(for participant: CallParticipant, videoSize: VideoSize = .default, grain: Int = 0) async -> Task<Void, Never> {
        let agent = participant.agent
        let callId = participant.snapshot.callId ?? ""
        let tone = participant.toneHz
        return Task { await run(senders: { await agent.senders(callId: callId) }, toneHz: tone, videoSize: videoSize, grain: grain) }
    }

    static func run(senders: @Sendable () async -> (audio: RTPSender?, video: RTPSender?), toneHz: Double,
                    videoSize: VideoSize = .default, grain: Int = 0) async {
        var tone = SineToneSource(frequency: toneHz)
        var pattern = TestPatternSource(width: videoSize.width, height: videoSize.height, grain: grain)
        let clock = ContinuousClock()
        let start = clock.now
        var audioFrames = 0
        var videoFrames = 0
        var (audio, video) = await senders()
        var lookedUp = start
        while !Task.isCancelled {
            if clock.now - lookedUp >= .milliseconds(250) {
                (audio, video) = await senders()
                lookedUp = clock.now
            }
            let elapsed = clock.now - start
            // Audio at 50 frames/s, video at 30 frames/s, caught up to wall-clock time; a sender
            // that appears later starts at the current frame.
            if audio == nil { audioFrames = Int(elapsed / .milliseconds(20)) }
            if video == nil { videoFrames = Int(elapsed / .milliseconds(33)) }
            while audio != nil, Duration.milliseconds(20) * audioFrames <= elapsed {
                try? audio?.send(audio: tone.nextFrame())
                audioFrames += 1
            }
            while video != nil, Duration.milliseconds(33) * videoFrames <= elapsed {
                try? video?.send(video: pattern.nextFrame())
                videoFrames += 1
            }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }
}

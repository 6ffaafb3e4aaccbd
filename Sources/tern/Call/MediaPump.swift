import TernMedia
import TernPeer

/// Feeds synthetic media into a call's senders in real time: a 20 ms tone frame every 20 ms and
/// a test-pattern video frame every 33 ms, until cancelled.
enum MediaPump {
    /// Starts pumping `participant`'s tone and test pattern into its call's senders; cancel to stop.
    static func start(for participant: CallParticipant) async -> Task<Void, Never> {
        let senders = await participant.agent.senders(callId: participant.snapshot.callId ?? "")
        let tone = participant.toneHz
        return Task { await run(audio: senders.audio, video: senders.video, toneHz: tone) }
    }

    static func run(audio: RtpSender?, video: RtpSender?, toneHz: Double) async {
        var tone = SineToneSource(frequency: toneHz)
        var pattern = TestPatternSource(width: 320, height: 240)
        let clock = ContinuousClock()
        let start = clock.now
        var audioFrames = 0
        var videoFrames = 0
        while !Task.isCancelled {
            let elapsed = clock.now - start
            // Catch up to wall-clock time: audio at 50 frames/s, video at 30 frames/s.
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

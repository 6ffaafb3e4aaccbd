import Foundation
import Synchronization
import TernMedia
import TernPeer

/// Feeds synthetic media into a call's senders in real time: a 20 ms tone frame every 20 ms and
/// a test-pattern video frame every 33 ms, until stopped.
///
/// The frames are made and encoded on a thread of the pump's own, not in a task: drawing and
/// encoding video is seconds of CPU a second across a group call's legs, and on Swift's
/// cooperative pool (one thread per core) it would leave the call agents' signaling (`quit`,
/// `members`, in-call messages) waiting behind it on a loaded machine. The senders are looked up
/// again every 250 ms from the agent (a task: the agent is an actor), so a video sender that a
/// mid-call renegotiation adds (either side's request) is fed too.
final class MediaPump: Sendable {
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

    /// What the pump's thread and the lookup task share.
    private final class State: Sendable {
        let senders = Mutex<(audio: RTPSender?, video: RTPSender?)>((nil, nil))
        let stopped = Atomic(false)
    }
    private let state = State()
    private let lookup: Task<Void, Never>

    /// Starts pumping `participant`'s tone and test pattern into its call's senders.
    convenience init(for participant: CallParticipant, videoSize: VideoSize = .default, grain: Int = 0) {
        let agent = participant.agent
        let callId = participant.snapshot.callId ?? ""
        self.init(senders: { await agent.senders(callId: callId) }, toneHz: participant.toneHz,
                  videoSize: videoSize, grain: grain)
    }

    /// Starts pumping a `toneHz` tone and the test pattern into whatever `senders` returns.
    init(senders lookUp: @escaping @Sendable () async -> (audio: RTPSender?, video: RTPSender?), toneHz: Double,
         videoSize: VideoSize = .default, grain: Int = 0) {
        let state = self.state
        lookup = Task {
            while !Task.isCancelled {
                let found = await lookUp()
                state.senders.withLock { $0 = found }
                try? await Task.sleep(for: .milliseconds(250))
            }
        }
        let thread = Thread { Self.run(state, toneHz: toneHz, videoSize: videoSize, grain: grain) }
        thread.name = "tern.media-pump"
        thread.start()
    }

    /// Stops the pump: its thread ends within one 5 ms step.
    func stop() {
        state.stopped.store(true, ordering: .relaxed)
        lookup.cancel()
    }

    deinit { stop() }

    private static func run(_ state: State, toneHz: Double, videoSize: VideoSize, grain: Int) {
        var tone = SineToneSource(frequency: toneHz)
        var pattern = TestPatternSource(width: videoSize.width, height: videoSize.height, grain: grain)
        let clock = ContinuousClock()
        let start = clock.now
        var audioFrames = 0
        var videoFrames = 0
        while !state.stopped.load(ordering: .relaxed) {
            let (audio, video) = state.senders.withLock { $0 }
            let elapsed = clock.now - start
            // Audio at 50 frames/s, video at 30 frames/s, caught up to wall-clock time; a sender
            // that appears later starts at the current frame.
            if audio == nil { audioFrames = Int(elapsed / .milliseconds(20)) }
            if video == nil { videoFrames = Int(elapsed / .milliseconds(33)) }
            while let audio, Duration.milliseconds(20) * audioFrames <= elapsed {
                try? audio.send(audio: tone.nextFrame())
                audioFrames += 1
            }
            while let video, Duration.milliseconds(33) * videoFrames <= elapsed {
                try? video.send(video: pattern.nextFrame())
                videoFrames += 1
            }
            Thread.sleep(forTimeInterval: 0.005)
        }
    }
}

import Synchronization
import TernMedia
import TernPeer

/// Sends 20 ms of a sine tone and one test-pattern frame through its senders every 20 ms until
/// stopped, like a microphone and a camera. The video sender may change while it runs
/// (renegotiation); frames a sender cannot send (hold, removed section) are counted by the
/// sender as dropped.
final class MediaPump: Sendable {
    private final class Senders: Sendable {
        let audio: RTPSender?
        let video: Mutex<RTPSender?>
        init(audio: RTPSender?, video: RTPSender?) {
            self.audio = audio
            self.video = Mutex(video)
        }
    }
    private let senders: Senders
    private let task: Task<Void, Never>

    /// Starts sending a `frequency` Hz tone on `audio` and the counting test pattern on `video`.
    init(audio: RTPSender?, video: RTPSender? = nil, frequency: Double) {
        let senders = Senders(audio: audio, video: video)
        self.senders = senders
        task = Task {
            var tone = SineToneSource(frequency: frequency)
            var pattern = TestPatternSource(width: 160, height: 120)
            while !Task.isCancelled {
                if let audio = senders.audio { try? audio.send(audio: tone.nextFrame()) }
                if let video = senders.video.withLock({ $0 }) { try? video.send(video: pattern.nextFrame()) }
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    /// The video sender fed from now on (nil stops feeding video).
    func setVideo(_ sender: RTPSender?) {
        senders.video.withLock { $0 = sender }
    }

    func stop() {
        task.cancel()
    }

    deinit { stop() }
}

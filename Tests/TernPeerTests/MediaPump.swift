import Foundation
import Synchronization
import TernMedia
import TernPeer

/// Sends 20 ms of a sine tone and one test-pattern frame through its senders every 20 ms until
/// stopped, like a microphone and a camera. The video sender may change while it runs
/// (renegotiation); frames a sender cannot send (hold, removed section) are counted by the
/// sender as dropped. It runs on a thread of its own: encoding on Swift's cooperative pool would
/// hold up the tasks of every other test in the process.
final class MediaPump: Sendable {
    private final class Senders: Sendable {
        let audio: RTPSender?
        let video: Mutex<RTPSender?>
        let stopped = Atomic(false)
        init(audio: RTPSender?, video: RTPSender?) {
            self.audio = audio
            self.video = Mutex(video)
        }
    }
    private let senders: Senders

    /// Starts sending a `frequency` Hz tone on `audio` and the counting test pattern on `video`.
    init(audio: RTPSender?, video: RTPSender? = nil, frequency: Double) {
        let senders = Senders(audio: audio, video: video)
        self.senders = senders
        let thread = Thread {
            var tone = SineToneSource(frequency: frequency)
            var pattern = TestPatternSource(width: 160, height: 120)
            while !senders.stopped.load(ordering: .relaxed) {
                if let audio = senders.audio { try? audio.send(audio: tone.nextFrame()) }
                if let video = senders.video.withLock({ $0 }) { try? video.send(video: pattern.nextFrame()) }
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
        thread.name = "tern.test.media-pump"
        thread.start()
    }

    /// The video sender fed from now on (nil stops feeding video).
    func setVideo(_ sender: RTPSender?) {
        senders.video.withLock { $0 = sender }
    }

    func stop() {
        senders.stopped.store(true, ordering: .relaxed)
    }

    deinit { stop() }
}

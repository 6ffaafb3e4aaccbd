import Foundation
import Synchronization
import TernCall
import TernCore
import TernMedia
import TernPeer

/// One side of `tern call --loopback`: a call agent, what it observed, and its media.
final class LoopbackParticipant: Sendable {
    struct Observed {
        var callId: String?
        var callStates: [String] = []
        var endReason: String?
        var peer: PeerConnection?
        var tracks: [RemoteTrack] = []
        var manageChannelOpen = false
        var manageEvents: [ManageCallEvent] = []
        var videoUpdates: [VideoMode] = []
        var videoRequests: [VideoMode] = []
        var problems: [String] = []
        var offer: String?
        var answer: String?
        var cameraPaused = false
    }

    let name: String
    let agent: CallAgent
    let toneHz: Double
    let observed = Mutex(Observed())
    /// The newest half second of decoded audio, for tone detection.
    let audioTail = Mutex<[Int16]>([])
    let videoCounters = Mutex<[UInt16]>([])

    init(name: String, agent: CallAgent, toneHz: Double) {
        self.name = name
        self.agent = agent
        self.toneHz = toneHz
    }

    var snapshot: Observed { observed.withLock { $0 } }

    /// The tone heard in the newest decoded audio, picked among the two tones in this call.
    var detectedToneHz: Double? {
        let samples = audioTail.withLock { $0 }
        guard samples.count >= 4_800 else { return nil }
        return ToneDetector.strongest(of: [440, 660], in: samples)
    }

    /// RMS level of the newest decoded audio, 0...1 (W3C `audioLevel` is the same scale).
    var audioLevel: Double? {
        let samples = audioTail.withLock { $0.suffix(4_800) }
        guard !samples.isEmpty else { return nil }
        let sum = samples.reduce(0.0) { $0 + Double($1) * Double($1) }
        return (sum / Double(samples.count)).squareRoot() / Double(Int16.max)
    }

    /// Consumes the remote track's decoded frames (runs until the track ends).
    func consume(_ track: RemoteTrack) async {
        for await frame in track.frames {
            switch frame {
            case let .audio(pcm):
                audioTail.withLock { tail in
                    tail.append(contentsOf: pcm)
                    if tail.count > 24_000 { tail.removeFirst(tail.count - 24_000) }
                }
            case let .video(picture):
                if let counter = TestPatternReader.counter(in: picture) {
                    videoCounters.withLock { $0.append(counter) }
                }
            }
        }
    }
}

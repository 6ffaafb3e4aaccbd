import TernSignaling
import Foundation
import Synchronization
import TernCall
import TernCore
import TernMedia
import TernPeer

/// One side of a call (`tern call --loopback` has two, `tern peer` one): a call agent, what it
/// observed, and its media.
final class CallParticipant: Sendable {
    struct Observed {
        var callId: String?
        var callStates: [String] = []
        var endReason: String?
        var peer: PeerConnection?
        var tracks: [RemoteTrack] = []
        var manageChannelOpen = false
        var manageEvents: [ManageCallEvent] = []
        /// Group calls: the members as last reported, and the messages received with their sender.
        var members: [CallMember] = []
        var memberMessages: [(member: String, event: ManageCallEvent)] = []
        /// Pushes that did not ring, by reason.
        var invalidPushes: [String] = []
        var videoUpdates: [VideoMode] = []
        var videoRequests: [VideoMode] = []
        var problems: [String] = []
        /// The signaling path's states through the call (`reconnecting`, `connected` after a resume).
        var signalingStatuses: [String] = []
        var offer: String?
        var answer: String?
        var cameraPaused = false
        /// Who called us, with what media, when (timeline ms) — the callee side.
        var incomingFrom: String?
        var incomingMedia: MediaOptions?
        var incomingAttachedData: [AttachedData]?
        var incomingAtMs: Double?
        /// When we sent the invite (timeline ms) — the caller side.
        var inviteAtMs: Double?
        /// When the call reached IN_PROGRESS (timeline ms).
        var inProgressAtMs: Double?
    }

    let name: String
    let agent: CallAgent
    let toneHz: Double
    /// The tones the other side may send (`tern call` knows both); nil: any tone (`tern peer`,
    /// whose peer may be another implementation), found by scanning the spectrum.
    let knownTones: [Double]?
    let observed = Mutex(Observed())
    /// The tone in the decoded audio, over the whole call.
    let tone: Mutex<ToneTracker>
    /// The newest 100 ms of decoded audio, for the level.
    let audioTail = Mutex<[Int16]>([])
    let videoCounters = Mutex<[UInt16]>([])

    init(name: String, agent: CallAgent, toneHz: Double, knownTones: [Double]? = [440, 660]) {
        self.name = name
        self.agent = agent
        self.toneHz = toneHz
        self.knownTones = knownTones
        tone = Mutex(ToneTracker(candidates: knownTones))
    }

    var snapshot: Observed { observed.withLock { $0 } }

    /// The tone heard over the recent seconds of decoded audio (`ToneTracker`): picked among
    /// `knownTones`, or the dominant frequency to the nearest hertz; nil until a tone was heard.
    var detectedToneHz: Double? { tone.withLock { $0.frequency } }

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
                tone.withLock { $0.append(pcm) }
                audioTail.withLock { tail in
                    tail.append(contentsOf: pcm)
                    if tail.count > 4_800 { tail.removeFirst(tail.count - 4_800) }
                }
            case let .video(picture):
                if let counter = TestPatternReader.counter(in: picture) {
                    videoCounters.withLock { $0.append(counter) }
                }
            }
        }
    }
}

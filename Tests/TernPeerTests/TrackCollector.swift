import Synchronization
import TernMedia
import TernPeer
import TernSDP

/// Collects one side's remote tracks (from `.track` events) and consumes their decoded frames:
/// the last second of audio PCM per track, and every test-pattern counter read from video.
final class TrackCollector: Sendable {
    private struct Collected {
        var tracks: [RemoteTrack] = []
        var pcm: [UInt32: [Int16]] = [:]
        var counters: [UInt32: [UInt16]] = [:]
        var readers: [Task<Void, Never>] = []
    }
    private final class Box: Sendable {
        let state = Mutex(Collected())
    }
    private let box = Box()

    /// Feed it every event of the side that receives (`PeerPair.startTrickle(onCallee:)`).
    func observe(_ event: PeerConnectionEvent) {
        guard case let .track(track) = event else { return }
        let box = self.box
        let ssrc = track.info.ssrc
        let reader = Task {
            for await frame in track.frames {
                switch frame {
                case let .audio(samples):
                    box.state.withLock { state in
                        var pcm = state.pcm[ssrc, default: []] + samples
                        if pcm.count > 48_000 { pcm.removeFirst(pcm.count - 48_000) }
                        state.pcm[ssrc] = pcm
                    }
                case let .video(picture):
                    if let counter = TestPatternReader.counter(in: picture) {
                        box.state.withLock { $0.counters[ssrc, default: []].append(counter) }
                    }
                }
            }
        }
        box.state.withLock { state in
            state.tracks.append(track)
            state.readers.append(reader)
        }
    }

    /// The first track of `kind` announced so far.
    func track(_ kind: MediaKind) -> RemoteTrack? {
        box.state.withLock { $0.tracks.first { $0.info.kind == kind } }
    }

    /// Every track of `kind`, in arrival order.
    func tracks(_ kind: MediaKind) -> [RemoteTrack] {
        box.state.withLock { $0.tracks.filter { $0.info.kind == kind } }
    }

    /// The strongest of `candidates` in the last half second of the track's audio (nil before
    /// half a second arrived).
    func tone(on track: RemoteTrack, among candidates: [Double] = [440, 660, 880]) -> Double? {
        let pcm = box.state.withLock { $0.pcm[track.info.ssrc] ?? [] }
        guard pcm.count >= 24_000 else { return nil }
        return ToneDetector.strongest(of: candidates, in: Array(pcm.suffix(24_000)))
    }

    /// Every test-pattern counter decoded on the track so far, in arrival order.
    func counters(on track: RemoteTrack) -> [UInt16] {
        box.state.withLock { $0.counters[track.info.ssrc] ?? [] }
    }

    /// Clears the audio kept so far, so the next `tone` reflects only what arrives after now.
    func resetAudio() {
        box.state.withLock { $0.pcm = [:] }
    }

    func stop() {
        box.state.withLock { $0.readers }.forEach { $0.cancel() }
    }
}

import TernMedia
import TernPeer

/// An audio/video call between two peers in one process: the caller sends a 440 Hz tone and a
/// counting test pattern, as a microphone and a camera would; the callee decodes both.
/// Returns the strongest of 440/660/880 Hz in half a second of received audio and the
/// test-pattern counters of the first 25 pictures decoded (they increase: frames arrive in order).
func audioVideoCall() async throws -> (tone: Double?, counters: [UInt16]) {
    let caller = try PeerConnection(configuration: .loopback)
    let callee = try PeerConnection(configuration: .loopback)
    defer { caller.close(); callee.close() }

    let audio = try caller.addTransceiver(.audio, direction: .sendonly)
    let video = try caller.addTransceiver(.video, direction: .sendonly)
    let offer = try await caller.createOffer()
    try await caller.setLocalDescription(offer)
    try await callee.setRemoteDescription(offer)
    let answer = try await callee.createAnswer()
    try await callee.setLocalDescription(answer)
    try await caller.setRemoteDescription(answer)

    // Candidates both ways; the caller reports when it is connected, the callee its tracks.
    let (connected, reportConnected) = AsyncStream.makeStream(of: Void.self)
    let (tracks, reportTrack) = AsyncStream.makeStream(of: RemoteTrack.self)
    let events = [
        Task {
            for await event in caller.events {
                switch event {
                case let .iceCandidate(candidate): try? await callee.addICECandidate(candidate)
                case .connectionStateChanged(.connected): reportConnected.yield()
                default: break
                }
            }
        },
        Task {
            for await event in callee.events {
                switch event {
                case let .iceCandidate(candidate): try? await caller.addICECandidate(candidate)
                case let .track(track): reportTrack.yield(track)
                default: break
                }
            }
        },
    ]
    defer { events.forEach { $0.cancel() } }
    for await _ in connected { break }

    // 20 ms of audio and one 320x240 picture every 20 ms, until the callee has seen enough.
    let sending = Task {
        var tone = SineToneSource(frequency: 440)
        var pattern = TestPatternSource(width: 320, height: 240)
        while !Task.isCancelled {
            try audio.sender.send(audio: tone.nextFrame())
            try video.sender.send(video: pattern.nextFrame())
            try await Task.sleep(for: .milliseconds(20))
        }
    }
    defer { sending.cancel() }

    var audioTrack: RemoteTrack?, videoTrack: RemoteTrack?
    for await track in tracks {
        if track.info.kind == .audio { audioTrack = track } else { videoTrack = track }
        if audioTrack != nil, videoTrack != nil { break }
    }
    guard let audioTrack, let videoTrack else { return (nil, []) }
    async let pcm = firstSamples(24_000, of: audioTrack)
    async let counters = firstCounters(25, of: videoTrack)
    let heard = await pcm
    return (ToneDetector.strongest(of: [440, 660, 880], in: heard), await counters)
}

/// The first `count` decoded PCM samples of an audio track.
func firstSamples(_ count: Int, of track: RemoteTrack) async -> [Int16] {
    var pcm: [Int16] = []
    for await case let .audio(samples) in track.frames {
        pcm += samples
        if pcm.count >= count { break }
    }
    return Array(pcm.prefix(count))
}

/// The test-pattern counters of the first `count` decoded pictures of a video track.
func firstCounters(_ count: Int, of track: RemoteTrack) async -> [UInt16] {
    var counters: [UInt16] = []
    for await case let .video(picture) in track.frames {
        if let counter = TestPatternReader.counter(in: picture) { counters.append(counter) }
        if counters.count >= count { break }
    }
    return counters
}

/// How the transport's target rate (the bandwidth estimate, for everything it sends) is shared
/// between a connection's encoders: audio first, video the rest.
///
/// The target counts whole datagrams (`MediaEngine.wireOverhead`) and the encoders make
/// payload: each packet's RTP header with its extensions, SRTP tag, UDP and IP headers (~64
/// bytes) come off first — 50 audio packets a second (20 ms frames), and 6 % of the video
/// (~1,100-byte payloads). Retransmissions were taken off before (`MediaEngine.encoderTarget`),
/// and RTCP carries no transport-wide number, so it is outside the estimate. (A flat tenth of the
/// target left 0.85 of a 1 Mbit/s link to the media, and at 100 kbit/s sent 19 % over it.) Audio keeps its
/// configured rate (at most 64 kbit/s) while the target is at least four times that, then takes
/// a quarter of the target, never under 16 kbit/s (or the configured rate, if lower): RFC 7587
/// §3.1.1 recommends 16–20 kbit/s for wideband speech. Video gets what remains, at least
/// 50 kbit/s (below that VP8 sends only stills) and never more than its configured rate: the
/// estimate takes encoders down on a path that cannot carry them, it does not raise them above
/// what the application asked for.
struct BitrateAllocation: Equatable {
    var audioBitsPerSecond: Int
    var videoKbps: Int

    static let minimumAudio = 16_000
    static let maximumAudio = 64_000
    static let minimumVideoKbps = 50
    /// Headers of 50 audio packets a second, ~64 bytes each, bit/s.
    static let audioHeaderBits = 50.0 * 64 * 8
    /// Video on the wire per bit of payload.
    static let videoHeaderShare = 1.06

    init(audioBitsPerSecond: Int, videoKbps: Int) {
        self.audioBitsPerSecond = audioBitsPerSecond
        self.videoKbps = videoKbps
    }

    /// The shares of `target` (bit/s) for encoders configured at these rates.
    init(target: Double, audioBitrate: Int, videoBitrateKbps: Int) {
        let ceiling = min(audioBitrate, Self.maximumAudio), floor = min(Self.minimumAudio, ceiling)
        let audio = min(ceiling, max(floor, Int(target / 4)))
        audioBitsPerSecond = audio
        let video = Int(((target - Double(audio) - Self.audioHeaderBits) / Self.videoHeaderShare / 1000).rounded())
        videoKbps = min(videoBitrateKbps, max(Self.minimumVideoKbps, video))
    }
}

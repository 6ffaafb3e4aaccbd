/// How a VP8 encoder is set up. Defaults suit real-time WebRTC video.
public struct VP8EncoderConfiguration: Sendable, Equatable {
    /// Picture width in pixels (even).
    public var width: Int
    /// Picture height in pixels (even).
    public var height: Int
    /// Target bitrate in kilobits per second (constant bitrate mode).
    public var bitrateKbps: Int
    /// Nominal frame rate; sets the encoder time base and RTP timestamp step.
    public var framesPerSecond: Int
    /// Longest distance between keyframes, in frames.
    public var keyframeInterval: Int
    /// libvpx speed/quality trade-off for real time, −16…16; higher is faster (WebRTC uses −6…−16 / 4…16).
    public var cpuUsed: Int
    /// Error-resilient mode: each frame is decodable after losses of earlier non-reference data.
    public var errorResilient: Bool
    /// Encoder threads.
    public var threads: Int
    /// Let libvpx skip a picture when its rate buffer runs low (`rc_dropframe_thresh` 30, as
    /// libwebrtc sets it) instead of overshooting the bitrate: on a constrained link fewer
    /// frames beat a queue. Off: every picture yields a frame.
    public var dropsFramesToHoldBitrate: Bool = false
    /// The largest keyframe, as a percentage of the average frame at the target bitrate
    /// (`VP8E_SET_MAX_INTRA_BITRATE_PCT`); nil: libvpx's default (no cap). libwebrtc caps it at
    /// half its 600 ms rate buffer: 900 % at 30 frames/s.
    public var maximumKeyframeBitratePercent: Int?

    /// A configuration; every field but the size has a default.
    public init(width: Int, height: Int, bitrateKbps: Int = Self.defaultBitrateKbps, framesPerSecond: Int = 30,
                keyframeInterval: Int = 3000, cpuUsed: Int = 8, errorResilient: Bool = true, threads: Int = 1) {
        self.width = width
        self.height = height
        self.bitrateKbps = bitrateKbps
        self.framesPerSecond = framesPerSecond
        self.keyframeInterval = keyframeInterval
        self.cpuUsed = cpuUsed
        self.errorResilient = errorResilient
        self.threads = threads
    }

    /// The bitrate a configuration gets when none is given, kbit/s.
    public static let defaultBitrateKbps = 800

    /// The most a WebRTC sender lets VP8 use for pictures of this size by default, kbit/s:
    /// libwebrtc's table (`GetMaxDefaultVideoBitrateKbps`), so a Tern call and a browser's
    /// spend alike on the same picture.
    public static func defaultMaximumBitrateKbps(width: Int, height: Int) -> Int {
        switch width * height {
        case ...(320 * 240): 600
        case ...(640 * 480): 1_700
        case ...(960 * 540): 2_000
        default: largestDefaultMaximumBitrateKbps
        }
    }

    /// `defaultMaximumBitrateKbps` of the largest pictures.
    public static let largestDefaultMaximumBitrateKbps = 2_500

    /// RTP timestamp increment (90 kHz clock, RFC 7741 §4.1) between frames.
    public var timestampIncrement: UInt32 { UInt32(90_000 / max(framesPerSecond, 1)) }
}

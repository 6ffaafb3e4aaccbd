/// The VP8 payload header: the first bytes of a VP8 frame, at the start of the
/// first RTP payload of a frame (RFC 7741 §4.3; RFC 6386 §9.1).
///
/// ```
///       0 1 2 3 4 5 6 7
///      +-+-+-+-+-+-+-+-+
///      |Size0|H| VER |P|
///      +-+-+-+-+-+-+-+-+
///      |     Size1     |
///      +-+-+-+-+-+-+-+-+
///      |     Size2     |
///      +-+-+-+-+-+-+-+-+
/// ```
/// P is 0 for a keyframe; a keyframe then carries the start code 0x9D 0x01 0x2A
/// and the picture size: 14-bit width and height, little-endian, each with a
/// 2-bit scaling code on top (RFC 6386 §9.1).
public struct VP8PayloadHeader: Sendable, Hashable {
    /// Whether the frame is a keyframe (P = 0).
    public var isKeyframe: Bool
    /// VER: the bitstream version (0…3 are defined).
    public var version: UInt8
    /// H: whether the frame is meant to be shown.
    public var showFrame: Bool
    /// Size of the first partition in bytes: Size0 + 8·Size1 + 2048·Size2.
    public var firstPartitionSize: Int
    /// Picture width from a keyframe header (nil for interframes or a missing start code).
    public var keyframeWidth: Int?
    /// Picture height from a keyframe header (nil for interframes or a missing start code).
    public var keyframeHeight: Int?

    /// Parses the header at the start of `data` (the VP8 frame, after the payload descriptor).
    /// Returns nil when fewer than 3 bytes are present; the keyframe size is nil
    /// when a keyframe's 7 further bytes are missing or its start code is wrong.
    public init?(_ data: ArraySlice<UInt8>) {
        guard data.count >= 3 else { return nil }
        let b = data.startIndex
        let first = data[b]
        isKeyframe = first & 0x01 == 0
        version = (first >> 1) & 0x07
        showFrame = first & 0x10 != 0
        firstPartitionSize = Int(first >> 5) + 8 * Int(data[b + 1]) + 2048 * Int(data[b + 2])
        if isKeyframe, data.count >= 10, data[b + 3] == 0x9D, data[b + 4] == 0x01, data[b + 5] == 0x2A {
            keyframeWidth = (Int(data[b + 6]) | Int(data[b + 7]) << 8) & 0x3FFF
            keyframeHeight = (Int(data[b + 8]) | Int(data[b + 9]) << 8) & 0x3FFF
        }
    }

    /// Parses the header at the start of a whole frame; see `init?(_:)` for slices.
    public init?(_ data: [UInt8]) { self.init(data[...]) }
}

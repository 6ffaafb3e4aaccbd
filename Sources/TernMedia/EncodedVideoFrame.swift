/// One encoded VP8 frame as it leaves an encoder or as reassembled from RTP
/// payloads, independent of RTP so that the peer-connection layer can route it.
public struct EncodedVideoFrame: Sendable, Hashable {
    /// RTP media timestamp, in 90 kHz units (RFC 7741 §4.1).
    public var timestamp: UInt32
    /// Whether the frame is a keyframe (intra frame) that decodes without references.
    public var isKeyframe: Bool
    /// The VP8 bitstream of the frame (RFC 6386 §9), starting with the frame tag.
    public var data: [UInt8]
    /// The 15-bit (or 7-bit) PictureID of RFC 7741 §4.2, when the sender included one.
    public var pictureID: UInt16?

    /// A frame with the given fields.
    public init(timestamp: UInt32, isKeyframe: Bool, data: [UInt8], pictureID: UInt16? = nil) {
        self.timestamp = timestamp
        self.isKeyframe = isKeyframe
        self.data = data
        self.pictureID = pictureID
    }
}

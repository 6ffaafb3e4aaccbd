/// Picture Loss Indication, PSFB (PT=206) FMT=1 (RFC 4585 §6.3.1): no FCI.
public struct PictureLossIndication: Sendable, Equatable {
    /// The RTCP packet type (PT).
    public static let packetType: UInt8 = 206
    /// The feedback message type (FMT) in the count field.
    public static let format: UInt8 = 1
    /// SSRC of the packet sender (the reporter).
    public var senderSSRC: UInt32
    /// SSRC of the media source the feedback is about.
    public var mediaSSRC: UInt32

    /// Creates a value from its fields.
    public init(senderSSRC: UInt32, mediaSSRC: UInt32) {
        self.senderSSRC = senderSSRC
        self.mediaSSRC = mediaSSRC
    }

    init(reading r: inout RTCPFieldReader) throws(RTCPParseError) {
        senderSSRC = try r.u32("sender SSRC")
        mediaSSRC = try r.u32("media source SSRC")
    }

    func write(to out: inout [UInt8]) {
        writeRTCPPacket(to: &out, count: Self.format, packetType: Self.packetType) { out in
            appendBigEndian(senderSSRC, to: &out)
            appendBigEndian(mediaSSRC, to: &out)
        }
    }
}

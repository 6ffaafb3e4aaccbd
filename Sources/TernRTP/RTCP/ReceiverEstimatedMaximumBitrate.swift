/// Receiver Estimated Maximum Bitrate, PSFB (PT=206) FMT=15 with the "REMB"
/// identifier (draft-alvestrand-rmcat-remb-03 §2.2).
///
///  | Unique identifier 'R' 'E' 'M' 'B'                             |
///  | Num SSRC (8) | BR Exp (6) | BR Mantissa (18)                  |
///  | SSRC feedback (32) ...                                        |
public struct ReceiverEstimatedMaximumBitrate: Sendable, Equatable {
    /// The RTCP packet type (PT).
    public static let packetType: UInt8 = 206
    /// The feedback message type (FMT) in the count field.
    public static let format: UInt8 = 15
    static let identifier: UInt32 = 0x5245_4D42  // "REMB"

    /// SSRC of the packet sender (the reporter).
    public var senderSSRC: UInt32
    /// Always 0 for REMB, kept as received.
    public var mediaSSRC: UInt32
    /// Exponent of the bitrate (6 bits).
    public var exponent: UInt8
    /// Mantissa of the bitrate (18 bits).
    public var mantissa: UInt32
    /// The SSRCs this estimate applies to.
    public var ssrcs: [UInt32]

    /// The estimate in bits per second: mantissa × 2^exponent.
    public var bitrate: UInt64 { UInt64(mantissa) << UInt64(exponent) }

    /// Encodes `bitrate` with the largest mantissa that fits 18 bits (rounding down).
    public init(senderSSRC: UInt32, mediaSSRC: UInt32 = 0, bitrate: UInt64, ssrcs: [UInt32]) {
        var mantissa = bitrate
        var exponent: UInt8 = 0
        while mantissa > 0x3FFFF, exponent < 63 {
            mantissa >>= 1
            exponent += 1
        }
        self.init(senderSSRC: senderSSRC, mediaSSRC: mediaSSRC, exponent: exponent, mantissa: UInt32(mantissa & 0x3FFFF), ssrcs: ssrcs)
    }

    /// Creates a value from its fields.
    public init(senderSSRC: UInt32, mediaSSRC: UInt32, exponent: UInt8, mantissa: UInt32, ssrcs: [UInt32]) {
        self.senderSSRC = senderSSRC
        self.mediaSSRC = mediaSSRC
        self.exponent = exponent
        self.mantissa = mantissa
        self.ssrcs = ssrcs
    }

    /// Parses the packet, or returns nil when the FCI does not start with "REMB"
    /// (another application-layer feedback, which the caller keeps raw).
    init?(reading r: inout RTCPFieldReader) throws(RTCPParseError) {
        senderSSRC = try r.u32("sender SSRC")
        mediaSSRC = try r.u32("media source SSRC")
        guard r.count >= 4, try r.u32("unique identifier") == Self.identifier else { return nil }
        let count = try r.u8("Num SSRC")
        let packed = try r.u24("BR Exp/Mantissa")
        exponent = UInt8(packed >> 18)
        mantissa = packed & 0x3FFFF
        var ssrcs: [UInt32] = []
        for _ in 0..<count { ssrcs.append(try r.u32("SSRC feedback")) }
        self.ssrcs = ssrcs
    }

    func write(to out: inout [UInt8]) {
        writeRTCPPacket(to: &out, count: Self.format, packetType: Self.packetType) { out in
            appendBigEndian(senderSSRC, to: &out)
            appendBigEndian(mediaSSRC, to: &out)
            appendBigEndian(Self.identifier, to: &out)
            out.append(UInt8(min(ssrcs.count, 255)))
            let packed = UInt32(exponent & 0x3F) << 18 | (mantissa & 0x3FFFF)
            out.append(UInt8(truncatingIfNeeded: packed >> 16))
            out.append(UInt8(truncatingIfNeeded: packed >> 8))
            out.append(UInt8(truncatingIfNeeded: packed))
            for ssrc in ssrcs.prefix(255) { appendBigEndian(ssrc, to: &out) }
        }
    }
}

/// A reception report block carried in SR and RR packets (RFC 3550 §6.4.1).
///
///  +=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+
///  |                 SSRC_1 (SSRC of first source)                 |
///  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///  | fraction lost |       cumulative number of packets lost       |
///  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///  |           extended highest sequence number received           |
///  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///  |                      interarrival jitter                      |
///  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///  |                         last SR (LSR)                         |
///  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///  |                   delay since last SR (DLSR)                  |
///  +=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+
public struct ReportBlock: Sendable, Equatable {
    /// The source this block reports on.
    public var ssrc: UInt32
    /// Fraction lost since the previous report, in 1/256 units.
    public var fractionLost: UInt8
    /// Cumulative packets lost, a signed 24-bit value (duplicates can make it negative).
    public var cumulativeLost: Int32
    /// Extended highest sequence number received (cycles << 16 | highest).
    public var extendedHighestSequence: UInt32
    /// Interarrival jitter in timestamp units (RFC 3550 §6.4.1, A.8).
    public var jitter: UInt32
    /// Middle 32 bits of the NTP timestamp of the last SR received from this source (0 if none).
    public var lastSenderReport: UInt32
    /// Delay since that SR, in 1/65536 seconds (0 if none).
    public var delaySinceLastSenderReport: UInt32

    /// Size on the wire.
    public static let size = 24

    /// Creates a value from its fields.
    public init(ssrc: UInt32, fractionLost: UInt8 = 0, cumulativeLost: Int32 = 0, extendedHighestSequence: UInt32 = 0,
                jitter: UInt32 = 0, lastSenderReport: UInt32 = 0, delaySinceLastSenderReport: UInt32 = 0) {
        self.ssrc = ssrc
        self.fractionLost = fractionLost
        self.cumulativeLost = cumulativeLost
        self.extendedHighestSequence = extendedHighestSequence
        self.jitter = jitter
        self.lastSenderReport = lastSenderReport
        self.delaySinceLastSenderReport = delaySinceLastSenderReport
    }

    init(reading r: inout RTCPFieldReader) throws(RTCPParseError) {
        ssrc = try r.u32("report block SSRC")
        fractionLost = try r.u8("fraction lost")
        let lost = try r.u24("cumulative lost")
        // Sign-extend the 24-bit two's complement value.
        cumulativeLost = Int32(bitPattern: lost << 8) >> 8
        extendedHighestSequence = try r.u32("extended highest sequence number")
        jitter = try r.u32("interarrival jitter")
        lastSenderReport = try r.u32("LSR")
        delaySinceLastSenderReport = try r.u32("DLSR")
    }

    func write(to out: inout [UInt8]) {
        appendBigEndian(ssrc, to: &out)
        out.append(fractionLost)
        let clamped = max(-0x80_0000, min(0x7F_FFFF, cumulativeLost))
        let bits = UInt32(bitPattern: clamped)
        out.append(UInt8(truncatingIfNeeded: bits >> 16))
        out.append(UInt8(truncatingIfNeeded: bits >> 8))
        out.append(UInt8(truncatingIfNeeded: bits))
        appendBigEndian(extendedHighestSequence, to: &out)
        appendBigEndian(jitter, to: &out)
        appendBigEndian(lastSenderReport, to: &out)
        appendBigEndian(delaySinceLastSenderReport, to: &out)
    }
}

/// RTCP Sender Report, PT=200 (RFC 3550 §6.4.1).
///
///  0                   1                   2                   3
///  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |V=2|P|    RC   |   PT=SR=200   |             length            |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |                         SSRC of sender                        |
/// +=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+
/// |              NTP timestamp, most significant word             |
/// |             NTP timestamp, least significant word             |
/// |                         RTP timestamp                         |
/// |                     sender's packet count                     |
/// |                      sender's octet count                     |
/// +=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+
/// |                 report blocks (RC × 24 bytes)                 |
/// |                  profile-specific extensions                  |
public struct SenderReport: Sendable, Equatable {
    /// The RTCP packet type (PT).
    public static let packetType: UInt8 = 200
    /// SSRC of the sender.
    public var ssrc: UInt32
    /// Wallclock time when this report was sent.
    public var ntpTimestamp: NTPTimestamp
    /// The RTP timestamp corresponding to `ntpTimestamp`.
    public var rtpTimestamp: UInt32
    /// RTP data packets sent since starting transmission.
    public var packetCount: UInt32
    /// Payload octets sent since starting transmission.
    public var octetCount: UInt32
    /// Reception reports (at most 31).
    public var reports: [ReportBlock]
    /// Profile-specific extension bytes after the report blocks.
    public var profileExtension: ArraySlice<UInt8>

    /// Creates a value from its fields.
    public init(ssrc: UInt32, ntpTimestamp: NTPTimestamp, rtpTimestamp: UInt32, packetCount: UInt32, octetCount: UInt32,
                reports: [ReportBlock] = [], profileExtension: ArraySlice<UInt8> = []) {
        self.ssrc = ssrc
        self.ntpTimestamp = ntpTimestamp
        self.rtpTimestamp = rtpTimestamp
        self.packetCount = packetCount
        self.octetCount = octetCount
        self.reports = reports
        self.profileExtension = profileExtension
    }

    init(reading r: inout RTCPFieldReader, count: UInt8) throws(RTCPParseError) {
        ssrc = try r.u32("sender SSRC")
        ntpTimestamp = NTPTimestamp(rawValue: try r.u64("NTP timestamp"))
        rtpTimestamp = try r.u32("RTP timestamp")
        packetCount = try r.u32("sender's packet count")
        octetCount = try r.u32("sender's octet count")
        var reports: [ReportBlock] = []
        reports.reserveCapacity(Int(count))
        for _ in 0..<count { reports.append(try ReportBlock(reading: &r)) }
        self.reports = reports
        profileExtension = try r.restInWords("profile-specific extensions")
    }

    func write(to out: inout [UInt8]) {
        writeRTCPPacket(to: &out, count: UInt8(min(reports.count, 31)), packetType: Self.packetType) { out in
            appendBigEndian(ssrc, to: &out)
            appendBigEndian(UInt32(truncatingIfNeeded: ntpTimestamp.rawValue >> 32), to: &out)
            appendBigEndian(UInt32(truncatingIfNeeded: ntpTimestamp.rawValue), to: &out)
            appendBigEndian(rtpTimestamp, to: &out)
            appendBigEndian(packetCount, to: &out)
            appendBigEndian(octetCount, to: &out)
            for block in reports.prefix(31) { block.write(to: &out) }
            out.append(contentsOf: profileExtension)
        }
    }
}

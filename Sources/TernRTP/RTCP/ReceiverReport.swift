/// RTCP Receiver Report, PT=201 (RFC 3550 §6.4.2): the SR layout without the sender info.
public struct ReceiverReport: Sendable, Equatable {
    /// The RTCP packet type (PT).
    public static let packetType: UInt8 = 201
    /// SSRC of the packet's originator.
    public var ssrc: UInt32
    /// Reception reports (at most 31).
    public var reports: [ReportBlock]
    /// Profile-specific extension bytes after the report blocks.
    public var profileExtension: ArraySlice<UInt8>

    /// Creates a value from its fields.
    public init(ssrc: UInt32, reports: [ReportBlock] = [], profileExtension: ArraySlice<UInt8> = []) {
        self.ssrc = ssrc
        self.reports = reports
        self.profileExtension = profileExtension
    }

    init(reading r: inout RTCPFieldReader, count: UInt8) throws(RTCPParseError) {
        ssrc = try r.u32("reporter SSRC")
        var reports: [ReportBlock] = []
        reports.reserveCapacity(Int(count))
        for _ in 0..<count { reports.append(try ReportBlock(reading: &r)) }
        self.reports = reports
        profileExtension = try r.restInWords("profile-specific extensions")
    }

    func write(to out: inout [UInt8]) {
        writeRTCPPacket(to: &out, count: UInt8(min(reports.count, 31)), packetType: Self.packetType) { out in
            appendBigEndian(ssrc, to: &out)
            for block in reports.prefix(31) { block.write(to: &out) }
            out.append(contentsOf: profileExtension)
        }
    }
}

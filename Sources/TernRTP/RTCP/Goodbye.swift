/// RTCP Goodbye, PT=203 (RFC 3550 §6.6): the sources leaving, and an optional reason.
public struct Goodbye: Sendable, Equatable {
    /// The RTCP packet type (PT).
    public static let packetType: UInt8 = 203
    /// The SSRC/CSRC identifiers.
    public var sources: [UInt32]
    /// The reason for leaving (UTF-8), if any.
    public var reason: ArraySlice<UInt8>?

    /// Creates a value from its fields.
    public init(sources: [UInt32], reason: ArraySlice<UInt8>? = nil) {
        self.sources = sources
        self.reason = reason
    }

    init(reading r: inout RTCPFieldReader, count: UInt8) throws(RTCPParseError) {
        var sources: [UInt32] = []
        for _ in 0..<count { sources.append(try r.u32("SSRC/CSRC")) }
        self.sources = sources
        if r.isEmpty {
            reason = nil
        } else {
            let length = try r.u8("reason length")
            reason = try r.bytes(Int(length), "reason for leaving")
        }
    }

    func write(to out: inout [UInt8]) {
        writeRTCPPacket(to: &out, count: UInt8(min(sources.count, 31)), packetType: Self.packetType) { out in
            for source in sources.prefix(31) { appendBigEndian(source, to: &out) }
            if let reason {
                out.append(UInt8(min(reason.count, 255)))
                out.append(contentsOf: reason.prefix(255))
            }
        }
    }
}

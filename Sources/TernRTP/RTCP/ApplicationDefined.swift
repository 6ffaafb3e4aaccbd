/// RTCP Application-Defined, PT=204 (RFC 3550 §6.7).
public struct ApplicationDefined: Sendable, Equatable {
    /// The RTCP packet type (PT).
    public static let packetType: UInt8 = 204
    /// The 5-bit subtype in the count field.
    public var subtype: UInt8
    /// SSRC of the sender.
    public var ssrc: UInt32
    /// Four ASCII characters naming the application.
    public var name: UInt32
    /// Application-dependent data (a multiple of 4 bytes).
    public var data: ArraySlice<UInt8>

    /// Creates a value from its fields.
    public init(subtype: UInt8, ssrc: UInt32, name: UInt32, data: ArraySlice<UInt8>) {
        self.subtype = subtype
        self.ssrc = ssrc
        self.name = name
        self.data = data
    }

    init(reading r: inout RTCPFieldReader, count: UInt8) throws(RTCPParseError) {
        subtype = count
        ssrc = try r.u32("SSRC")
        name = try r.u32("name")
        data = try r.restInWords("application-dependent data")
    }

    func write(to out: inout [UInt8]) {
        writeRTCPPacket(to: &out, count: subtype, packetType: Self.packetType) { out in
            appendBigEndian(ssrc, to: &out)
            appendBigEndian(name, to: &out)
            out.append(contentsOf: data)
        }
    }
}

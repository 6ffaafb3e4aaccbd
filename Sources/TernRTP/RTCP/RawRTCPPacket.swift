/// An RTCP packet this module does not interpret, kept whole so it can be
/// forwarded or re-serialised (RFC 3550 §6.1: unknown types are ignored).
public struct RawRTCPPacket: Sendable, Equatable {
    /// The 5-bit count/FMT field.
    public var count: UInt8
    /// The RTCP packet type (PT).
    public var packetType: UInt8
    /// Whether the P bit was set: then `body` ends with the padding, its last byte the count.
    public var padding: Bool
    /// The body after the 4-byte header, as received (a multiple of 4 bytes).
    public var body: ArraySlice<UInt8>

    /// Creates a value from its fields.
    public init(count: UInt8, packetType: UInt8, padding: Bool = false, body: ArraySlice<UInt8>) {
        self.count = count
        self.packetType = packetType
        self.padding = padding
        self.body = body
    }

    func write(to out: inout [UInt8]) {
        writeRTCPPacket(to: &out, count: count, packetType: packetType, padding: padding) { out in out.append(contentsOf: body) }
    }
}

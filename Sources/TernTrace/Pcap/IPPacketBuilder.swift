import TernCore

/// Puts an IPv4 or IPv6 header in front of a transport-layer payload.
///
/// IPv4 header (RFC 791 §3.1), 20 bytes, no options, DF set, TTL 64:
/// ```
///  0                   1                   2                   3
///  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |Version|  IHL  |Type of Service|          Total Length         |
/// |         Identification        |Flags|      Fragment Offset    |
/// |  Time to Live |    Protocol   |         Header Checksum       |
/// |                       Source Address                          |
/// |                    Destination Address                        |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// ```
/// IPv6 header (RFC 8200 §3), 40 bytes: version/class/flow, payload length,
/// next header, hop limit 64, source, destination.
public enum IPPacketBuilder {
    /// IPv4 header length without options.
    public static let ipv4HeaderLength = 20
    /// IPv6 fixed header length.
    public static let ipv6HeaderLength = 40
    /// IP protocol number of UDP (RFC 768).
    public static let udpProtocol: UInt8 = 17
    /// IP protocol number of SCTP (RFC 9260).
    public static let sctpProtocol: UInt8 = 132

    /// The IP header length for the family of `address`.
    public static func headerLength(for address: IPAddress) -> Int {
        address.isIPv4 ? ipv4HeaderLength : ipv6HeaderLength
    }

    /// One IP packet carrying `payload` (already a UDP datagram, SCTP packet, …).
    ///
    /// Length fields saturate at 65,535; callers keep packets within that.
    /// - Throws: `PcapError.addressFamilyMismatch` when the ends differ in family.
    public static func packet(protocolNumber: UInt8, payload: some Collection<UInt8>, from source: IPAddress,
                              to destination: IPAddress) throws(PcapError) -> [UInt8] {
        guard source.isIPv4 == destination.isIPv4 else {
            throw .addressFamilyMismatch(from: source, to: destination)
        }
        var writer = ByteWriter(capacity: ipv6HeaderLength + payload.count)
        if source.isIPv4 {
            writer.write(UInt8(0x45))                   // version 4, IHL 5 words
            writer.write(UInt8(0))                      // TOS
            writer.write(UInt16(clamping: ipv4HeaderLength + payload.count))
            writer.write(UInt16(0))                     // identification
            writer.write(UInt16(0x4000))                // flags: don't fragment
            writer.write(UInt8(64))                     // TTL
            writer.write(protocolNumber)
            writer.write(UInt16(0))                     // header checksum, patched below
            writer.write(contentsOf: source.bytes)
            writer.write(contentsOf: destination.bytes)
            writer.patch(InternetChecksum.checksum(writer.bytes), at: 10)
        } else {
            writer.write(UInt32(0x6000_0000))           // version 6, class 0, flow 0
            writer.write(UInt16(clamping: payload.count))
            writer.write(protocolNumber)                // next header
            writer.write(UInt8(64))                     // hop limit
            writer.write(contentsOf: source.bytes)
            writer.write(contentsOf: destination.bytes)
        }
        writer.write(contentsOf: payload)
        return writer.finish()
    }
}

import TernCore

/// Wraps a UDP payload in a UDP header (RFC 768) and an IP header, as it was on
/// the wire, so a capture shows the real 5-tuple.
///
/// ```
///  0      7 8     15 16    23 24    31
/// +--------+--------+--------+--------+
/// |   Source Port   |    Dest Port    |
/// |     Length      |    Checksum     |
/// +--------+--------+--------+--------+
/// ```
/// The checksum is always computed over the pseudo-header (RFC 768; RFC 8200
/// §8.1 makes it mandatory for IPv6), so Wireshark's optional validation passes.
public enum UDPPacketBuilder {
    /// UDP header length.
    public static let headerLength = 8

    /// One IP packet carrying `payload` in a UDP datagram from `source` to `destination`.
    /// - Throws: `PcapError.addressFamilyMismatch` when the two ends differ in family.
    public static func packet(payload: some Collection<UInt8>, from source: SocketAddress,
                              to destination: SocketAddress) throws(PcapError) -> [UInt8] {
        let length = UInt16(clamping: headerLength + payload.count)
        var writer = ByteWriter(capacity: headerLength + payload.count)
        writer.write(source.port)
        writer.write(destination.port)
        writer.write(length)
        writer.write(UInt16(0))                         // checksum, patched below
        writer.write(contentsOf: payload)
        var pseudo = ByteWriter(capacity: 40)
        pseudo.write(contentsOf: source.address.bytes)
        pseudo.write(contentsOf: destination.address.bytes)
        if source.address.isIPv4 {
            pseudo.write(UInt8(0)); pseudo.write(IPPacketBuilder.udpProtocol); pseudo.write(length)
        } else {
            pseudo.write(UInt32(length)); pseudo.writeZeros(3); pseudo.write(IPPacketBuilder.udpProtocol)
        }
        // Only the last chunk (the datagram) may have odd length, as RFC 1071 summing requires.
        let checksum = InternetChecksum.finish(InternetChecksum.add(writer.bytes, to: InternetChecksum.add(pseudo.bytes)))
        writer.patch(checksum == 0 ? 0xFFFF : checksum, at: 6)   // 0 means "no checksum"
        return try IPPacketBuilder.packet(protocolNumber: IPPacketBuilder.udpProtocol, payload: writer.finish(),
                                          from: source.address, to: destination.address)
    }
}

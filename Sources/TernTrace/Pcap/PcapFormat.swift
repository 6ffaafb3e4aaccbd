/// Constants and encoders of the classic libpcap file format
/// (draft-ietf-opsawg-pcap §4–§5), written little-endian with microsecond timestamps.
///
/// File header, 24 bytes:
/// ```
/// magic 0xa1b2c3d4 | major 2 | minor 4 | reserved1 (0) | reserved2 (0) | snaplen | linktype
///   4 bytes          2         2         4               4               4         4
/// ```
/// Each record: 16-byte header then `capturedLength` bytes of packet data:
/// ```
/// ts seconds | ts microseconds | captured length | original length
/// ```
///
/// Link type: `LINKTYPE_RAW` (101), whose packets start directly with an IPv4 or
/// IPv6 header (the version nibble tells which). Wireshark/tshark decode it without
/// any fake Ethernet header, and one file can hold both families.
public enum PcapFormat {
    /// The microsecond-resolution magic number.
    public static let magic: UInt32 = 0xa1b2_c3d4
    /// Format major version.
    public static let versionMajor: UInt16 = 2
    /// Format minor version.
    public static let versionMinor: UInt16 = 4
    /// Largest number of bytes stored per record; longer packets are truncated.
    public static let snapshotLength: UInt32 = 65_535
    /// `LINKTYPE_RAW`: raw IPv4/IPv6 packets.
    public static let linkTypeRaw: UInt32 = 101
    /// Length of the file header.
    public static let fileHeaderLength = 24
    /// Length of each record header.
    public static let recordHeaderLength = 16

    /// The 24-byte file header.
    public static func fileHeader(linkType: UInt32 = linkTypeRaw) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(fileHeaderLength)
        appendLittleEndian(magic, to: &bytes)
        appendLittleEndian(versionMajor, to: &bytes)
        appendLittleEndian(versionMinor, to: &bytes)
        appendLittleEndian(UInt32(0), to: &bytes)
        appendLittleEndian(UInt32(0), to: &bytes)
        appendLittleEndian(snapshotLength, to: &bytes)
        appendLittleEndian(linkType, to: &bytes)
        return bytes
    }

    /// Appends one record (header + captured bytes) to `bytes`.
    /// - Parameters:
    ///   - packet: the bytes to store (at most `snapshotLength`).
    ///   - originalLength: the packet's length on the wire (≥ `packet.count`).
    static func appendRecord(_ packet: [UInt8], originalLength: Int, timestamp: PcapTimestamp,
                             to bytes: inout [UInt8]) {
        appendLittleEndian(timestamp.seconds, to: &bytes)
        appendLittleEndian(timestamp.microseconds, to: &bytes)
        appendLittleEndian(UInt32(clamping: packet.count), to: &bytes)
        appendLittleEndian(UInt32(clamping: originalLength), to: &bytes)
        bytes.append(contentsOf: packet)
    }

    static func appendLittleEndian<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
}

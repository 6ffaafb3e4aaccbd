internal import TernCore

/// The probe packet of DPLPMTUD for SCTP (RFC 8899 §6.2.1.1): a HEARTBEAT whose info identifies
/// the probe, padded to the size being tested by a PAD chunk (RFC 4820). A peer that does not
/// know PAD skips it (its type's upper bits are 10: skip, do not report) and answers the
/// HEARTBEAT as usual, so any RFC 9260 peer takes part without knowing it.
///
/// ```
///  common header (12) | HEARTBEAT: type 4, length 20 | Heartbeat Info param: type 1, length 16,
///                     |   "TPMU" | nonce (4) | probed size (4)
///                     | PAD: type 0x84, length 4 + n | n zero bytes
/// ```
enum PathMTUProbe {
    /// PAD chunk type (RFC 4820 §3).
    static let padChunkType: UInt8 = 0x84
    private static let magic: [UInt8] = Array("TPMU".utf8)
    /// Common header + HEARTBEAT with its 12-byte info + PAD chunk header: the smallest probe.
    static let minimumSize = SCTPPacket.headerSize + 20 + 4

    /// A probe of exactly `size` bytes (rounded down to a multiple of 4), after `header`.
    static func packet(size: Int, nonce: UInt32, header: [UInt8]) -> [UInt8] {
        var out = header
        var info = magic
        info.appendBE(nonce)
        info.appendBE(UInt32(clamping: size))
        SCTPChunk.heartbeat([.heartbeatInfo(info)]).write(into: &out)
        let padding = max(0, (size & ~3) - out.count - 4)
        out.append(padChunkType)
        out.append(0)
        out.appendBE(UInt16(clamping: 4 + padding))
        out.append(contentsOf: repeatElement(0, count: padding))
        SCTPPacket.finalize(&out)
        return out
    }

    /// The nonce, when a HEARTBEAT ACK's info is one of our probes' (nil for a plain heartbeat).
    static func nonce(inHeartbeatInfo info: [UInt8]) -> UInt32? {
        guard info.count == 12, info.starts(with: magic) else { return nil }
        var reader = ByteReader(info[4...])
        return try? reader.readUInt32()
    }
}

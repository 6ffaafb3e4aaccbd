internal import CCRC32C

/// CRC32c (Castagnoli, polynomial 0x1EDC6F41, reflected 0x82F63B78), the SCTP
/// checksum of RFC 9260 §6.8 and Appendix A: with the CPU's crc32 instruction where there is
/// one (x86-64 SSE 4.2; ~10x the table's speed, and every DATA packet is checksummed on both
/// sides), otherwise with slicing-by-8 tables.
///
/// The checksum is stored in the packet in little-endian byte order, as
/// RFC 9260 Appendix A requires (the reflected CRC's low byte goes first).
public enum CRC32c {
    /// Eight 256-entry tables: `tables[k * 256 + b]` is the CRC of byte `b`
    /// followed by `k` zero bytes.
    static let tables: [UInt32] = {
        var t = [UInt32](repeating: 0, count: 8 * 256)
        for i in 0..<256 {
            var crc = UInt32(i)
            for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
            t[i] = crc
        }
        for i in 0..<256 {
            var crc = t[i]
            for k in 1..<8 {
                crc = t[Int(crc & 0xff)] ^ (crc >> 8)
                t[k * 256 + i] = crc
            }
        }
        return t
    }()

    /// The CRC32c of `bytes` (initial value and final XOR 0xFFFFFFFF).
    public static func checksum(_ bytes: some Collection<UInt8>) -> UInt32 {
        var state: UInt32 = 0xFFFF_FFFF
        update(&state, bytes)
        return ~state
    }

    /// Feeds `bytes` into a running (un-finalised) CRC state.
    static func update(_ state: inout UInt32, _ bytes: some Collection<UInt8>) {
        let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            state = update(state, UnsafeRawBufferPointer(buffer))
        }
        if done == nil {
            let copy = Array(bytes)
            copy.withUnsafeBytes { state = update(state, $0) }
        }
    }

    /// Whether the crc32 instruction is used (decided once per process).
    static let usesHardware = tern_crc32c_hardware_available() != 0

    private static func update(_ initial: UInt32, _ buffer: UnsafeRawBufferPointer) -> UInt32 {
        if usesHardware, let base = buffer.baseAddress {
            return tern_crc32c_hardware_update(initial, base, buffer.count)
        }
        return tableUpdate(initial, buffer)
    }

    /// The portable slicing-by-8 update (also what the tests compare the hardware path with).
    static func tableUpdate(_ initial: UInt32, _ buffer: UnsafeRawBufferPointer) -> UInt32 {
        var crc = initial
        var index = 0
        let count = buffer.count
        tables.withUnsafeBufferPointer { t in
            while count - index >= 8 {
                let lo = buffer.loadUnaligned(fromByteOffset: index, as: UInt32.self).littleEndian ^ crc
                let hi = buffer.loadUnaligned(fromByteOffset: index + 4, as: UInt32.self).littleEndian
                crc = t[7 * 256 + Int(lo & 0xff)] ^ t[6 * 256 + Int((lo >> 8) & 0xff)]
                    ^ t[5 * 256 + Int((lo >> 16) & 0xff)] ^ t[4 * 256 + Int(lo >> 24)]
                    ^ t[3 * 256 + Int(hi & 0xff)] ^ t[2 * 256 + Int((hi >> 8) & 0xff)]
                    ^ t[1 * 256 + Int((hi >> 16) & 0xff)] ^ t[Int(hi >> 24)]
                index += 8
            }
            while index < count {
                crc = t[Int((crc ^ UInt32(buffer[index])) & 0xff)] ^ (crc >> 8)
                index += 1
            }
        }
        return crc
    }
}

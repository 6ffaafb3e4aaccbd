/// Writes one RTCP packet: the common header, then `body`, then the length patched in.
/// `body` must write a multiple of 4 bytes (callers pad).
func writeRTCPPacket(to out: inout [UInt8], count: UInt8, packetType: UInt8, padding: Bool = false, body: (inout [UInt8]) -> Void) {
    let start = out.count
    out.append(0x80 | (padding ? 0x20 : 0) | (count & 0x1F))
    out.append(packetType)
    out.append(0)
    out.append(0)
    body(&out)
    while (out.count - start) % 4 != 0 { out.append(0) }
    let words = UInt16(truncatingIfNeeded: (out.count - start) / 4 - 1)
    out[start + 2] = UInt8(truncatingIfNeeded: words >> 8)
    out[start + 3] = UInt8(truncatingIfNeeded: words)
}

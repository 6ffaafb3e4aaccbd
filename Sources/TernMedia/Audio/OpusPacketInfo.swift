/// Reads the duration of an Opus packet from its TOC byte and frame count
/// (RFC 6716 §3.1–3.2) without decoding it. Pure Swift, bounds-checked.
public enum OpusPacketInfo {
    /// Samples per channel at 48 kHz the packet decodes to, or nil if the packet
    /// is empty, its frame count byte is missing, or it exceeds 120 ms (§3.2.5).
    public static func samplesPerChannel(_ packet: [UInt8]) -> Int? {
        guard let toc = packet.first else { return nil }
        let config = Int(toc >> 3)
        // §3.1, Table 2: frame sizes per configuration number.
        let frameSamples: Int
        switch config {
        case 0...11: frameSamples = [480, 960, 1920, 2880][config % 4]   // SILK: 10, 20, 40, 60 ms
        case 12...15: frameSamples = [480, 960][config % 2]              // Hybrid: 10, 20 ms
        default: frameSamples = [120, 240, 480, 960][config % 4]         // CELT: 2.5, 5, 10, 20 ms
        }
        let frames: Int
        switch toc & 0x03 {
        case 0: frames = 1
        case 1, 2: frames = 2
        default:
            guard packet.count >= 2 else { return nil }
            frames = Int(packet[1] & 0x3F)   // §3.2.5: M, the frame count
            guard frames >= 1 else { return nil }
        }
        let total = frames * frameSamples
        return total <= 5760 ? total : nil
    }
}

import Testing
import TernMedia

@Suite("VP8 payload header (RFC 7741 §4.3)")
struct VP8PayloadHeaderTests {
    @Test("keyframe header with start code and 14-bit sizes (scaling bits ignored)")
    func keyframe() throws {
        // Size0 = 5, H = 1, VER = 0, P = 0 → 0b101_1_000_0; Size1 = 2, Size2 = 1 → 5 + 16 + 2048.
        // Width 640 with scale bits 01 → 0x4280 little-endian; height 480 → 0x01E0.
        let bytes: [UInt8] = [0b1011_0000, 0x02, 0x01, 0x9D, 0x01, 0x2A, 0x80, 0x42, 0xE0, 0x01]
        let header = try #require(VP8PayloadHeader(bytes))
        #expect(header.isKeyframe && header.showFrame && header.version == 0)
        #expect(header.firstPartitionSize == 2069)
        #expect(header.keyframeWidth == 640 && header.keyframeHeight == 480)
    }

    @Test("interframe header: P = 1, no size")
    func interframe() throws {
        let header = try #require(VP8PayloadHeader([0b0001_0011, 0x00, 0x00, 0x9D, 0x01, 0x2A, 0, 0, 0, 0]))
        #expect(!header.isKeyframe && header.version == 1 && header.showFrame)
        #expect(header.keyframeWidth == nil && header.keyframeHeight == nil)
    }

    @Test("short or start-code-less input never traps", arguments: [
        [UInt8](), [0x00], [0x00, 0x00], [0x00, 0x00, 0x00, 0x9D, 0x01], [0x00, 0x00, 0x00, 0x9D, 0x01, 0x2B, 1, 2, 3, 4],
    ])
    func shortInput(bytes: [UInt8]) {
        let header = VP8PayloadHeader(bytes)
        #expect(bytes.count < 3 ? header == nil : header?.keyframeWidth == nil)
    }
}

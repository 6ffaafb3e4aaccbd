import Testing
import TernCore
import TernMedia

/// Descriptor vectors built bit by bit from the field definitions of RFC 7741 §4.2.
@Suite("VP8 payload descriptor (RFC 7741 §4.2)")
struct VP8PayloadDescriptorTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let name: String
        let bytes: [UInt8]
        let descriptor: VP8PayloadDescriptor
        var testDescription: String { name }
    }

    static let vectors: [Vector] = [
        // |X=0|R|N=0|S=1|R|PID=0|: the minimal descriptor of a frame start.
        Vector(name: "minimal, start of partition 0", bytes: [0b0001_0000],
               descriptor: VP8PayloadDescriptor()),
        // |X=0|R|N=1|S=0|R|PID=3|: continuation of partition 3 of a non-reference frame.
        Vector(name: "non-reference continuation of partition 3", bytes: [0b0010_0011],
               descriptor: VP8PayloadDescriptor(nonReference: true, startOfPartition: false, partitionIndex: 3)),
        // X=1, I=1, M=0: 7-bit PictureID 0x55.
        Vector(name: "7-bit PictureID", bytes: [0x90, 0x80, 0x55],
               descriptor: VP8PayloadDescriptor(pictureID: .short(0x55))),
        // X=1, I=1, M=1: 15-bit PictureID 0x1234 → |1|001 0010| |0011 0100|.
        Vector(name: "15-bit PictureID", bytes: [0x90, 0x80, 0x92, 0x34],
               descriptor: VP8PayloadDescriptor(pictureID: .long(0x1234))),
        // X=1, I=1 (M=1, 0x7FFF), L=1 (TL0PICIDX 0xAB), T=1 (TID 2, Y=1), K=1 (KEYIDX 17).
        Vector(name: "all extensions", bytes: [0x90, 0xF0, 0xFF, 0xFF, 0xAB, 0b10_1_10001],
               descriptor: VP8PayloadDescriptor(pictureID: .long(0x7FFF), tl0PictureIndex: 0xAB,
                                                temporalLayerIndex: 2, layerSync: true, keyIndex: 17)),
        // X=1, L=1, T=1 without I: TL0PICIDX 5, TID 1, Y=0, KEYIDX bits zero (K=0).
        Vector(name: "temporal layers without PictureID", bytes: [0x90, 0x60, 0x05, 0b01_0_00000],
               descriptor: VP8PayloadDescriptor(tl0PictureIndex: 5, temporalLayerIndex: 1)),
        // X=1, K=1 only: the T/K byte is present, TID/Y ignored, KEYIDX 31.
        Vector(name: "KEYIDX only", bytes: [0x80, 0x10, 0x1F],
               descriptor: VP8PayloadDescriptor(startOfPartition: false, keyIndex: 31)),
    ]

    @Test("parses each vector and serialises it back byte for byte", arguments: vectors)
    func roundTrip(_ vector: Vector) throws {
        let payload = vector.bytes + [0xAA]
        let (parsed, length) = try VP8PayloadDescriptor.parse(payload)
        #expect(parsed == vector.descriptor)
        #expect(length == vector.bytes.count)
        #expect(vector.descriptor.serialized() == vector.bytes)
        #expect(vector.descriptor.encodedLength == vector.bytes.count)
    }

    @Test("reserved bits are ignored on receipt")
    func reservedBitsIgnored() throws {
        // R bits (0x40, 0x08) in the first byte and RSV bits (0x0F) in X are set.
        let (parsed, length) = try VP8PayloadDescriptor.parse([0xD8, 0x8F, 0x05, 0x00])
        #expect(parsed == VP8PayloadDescriptor(pictureID: .short(5)))
        #expect(length == 3)
    }

    @Test("every truncation of a full descriptor is a typed error", arguments: 0..<6)
    func truncations(_ length: Int) {
        let full: [UInt8] = [0x90, 0xF0, 0xFF, 0xFF, 0xAB, 0xB1]
        #expect(throws: VP8PayloadError.self) { try VP8PayloadDescriptor.parse(Array(full.prefix(length))) }
    }

    @Test("an empty payload reports what was missing")
    func emptyPayloadError() {
        #expect(throws: VP8PayloadError.truncatedDescriptor(.truncated(needed: 1, available: 0, offset: 0))) {
            try VP8PayloadDescriptor.parse([UInt8]())
        }
    }
}

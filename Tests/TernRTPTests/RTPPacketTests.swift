import Testing
import TernCore
import TernRTP

@Suite("RTP packet parse and write (RFC 3550 §5.1)")
struct RTPPacketTests {
    @Test("minimal header parses every field and round-trips")
    func minimalHeader() throws {
        // V=2 P=0 X=0 CC=0 | M=1 PT=96 | seq 0x1234 | ts 0xAABBCCDD | SSRC 0x01020304 | payload "hi"
        let bytes = hex("80e0 1234 aabbccdd 01020304 6869")
        let p = try RTPPacket(parsing: bytes)
        #expect(p.marker)
        #expect(p.payloadType == 96)
        #expect(p.sequenceNumber == 0x1234)
        #expect(p.timestamp == 0xAABB_CCDD)
        #expect(p.ssrc == 0x0102_0304)
        #expect(p.csrcs.isEmpty)
        #expect(p.headerExtension == nil)
        #expect(Array(p.payload) == Array("hi".utf8))
        #expect(p.bytes == bytes)
    }

    @Test("payload is a slice of the input buffer, not a copy")
    func payloadIsSlice() throws {
        let bytes = hex("8060 0001 00000001 00000002 01020304")
        let p = try RTPPacket(parsing: bytes)
        #expect(p.payload.startIndex == 12)
        #expect(p.payload.endIndex == 16)
        bytes.withUnsafeBufferPointer { buffer in
            p.payload.withUnsafeBufferPointer { slice in
                #expect(slice.baseAddress == buffer.baseAddress.map { $0 + 12 })
            }
        }
    }

    @Test("CSRC list, padding and extension round-trip byte for byte")
    func fullHeader() throws {
        // V=2 P=1 X=1 CC=2, one-byte extension (id 1 len 1 = 0xAB, padding), payload 3 bytes, padding 4
        let bytes = hex("b2 08 0005 00000010 00000020 00000030 00000040 bede 0001 10ab 0000 c0ffee 00000004")
        let p = try RTPPacket(parsing: bytes)
        #expect(p.csrcs == [0x30, 0x40])
        #expect(!p.marker)
        #expect(p.payloadType == 8)
        #expect(p.paddingSize == 4)
        #expect(Array(p.payload) == [0xC0, 0xFF, 0xEE])
        #expect(try p.headerExtension?.elements() == [RTPHeaderExtensionElement(id: 1, value: [0xAB])])
        #expect(p.bytes == bytes)
        #expect(p.wireSize == bytes.count)
    }

    @Test("building a packet then parsing it gives the same packet")
    func buildThenParse() throws {
        var p = RTPPacket(marker: true, payloadType: 111, sequenceNumber: 65535, timestamp: 1, ssrc: 9,
                          csrcs: [1, 2, 3], payload: [1, 2, 3, 4, 5][...])
        p.paddingSize = 3
        let parsed = try RTPPacket(parsing: p.bytes)
        #expect(parsed == p)
    }

    struct Malformed: Sendable, CustomStringConvertible {
        let name: String
        let bytes: [UInt8]
        let error: RTPParseError
        var description: String { name }
    }

    static let malformed: [Malformed] = [
        Malformed(name: "empty", bytes: [], error: .truncated(field: "fixed header", offset: 0, underlying: .truncated(needed: 1, available: 0, offset: 0))),
        Malformed(name: "version 1", bytes: hex("40600001000000010000000200"), error: .unsupportedVersion(found: 1, offset: 0)),
        Malformed(name: "header cut in timestamp", bytes: hex("80600001000000"),
                  error: .truncated(field: "timestamp", offset: 4, underlying: .truncated(needed: 4, available: 3, offset: 4))),
        Malformed(name: "CSRC count beyond data", bytes: hex("8360000100000001000000020000000a"),
                  error: .truncated(field: "CSRC list", offset: 16, underlying: .truncated(needed: 4, available: 0, offset: 16))),
        Malformed(name: "extension length beyond data", bytes: hex("9060 0001 00000001 00000002 bede 0002 10ab0000"),
                  error: .truncated(field: "extension data", offset: 16, underlying: .truncated(needed: 8, available: 4, offset: 16))),
        Malformed(name: "padding count zero", bytes: hex("a0600001000000010000000200"), error: .invalidPadding(count: 0, available: 1, offset: 12)),
        Malformed(name: "padding count too large", bytes: hex("a060000100000001000000020109"), error: .invalidPadding(count: 9, available: 2, offset: 12)),
    ]

    @Test("malformed packets give a typed error naming field and offset", arguments: malformed)
    func malformedInput(_ c: Malformed) {
        #expect(throws: c.error) { try RTPPacket(parsing: c.bytes) }
    }

    @Test("errors describe themselves for a user")
    func errorDescription() {
        let e = RTPParseError.invalidPadding(count: 9, available: 2, offset: 12)
        #expect(e.description.contains("padding count 9"))
        #expect(e.description.contains("offset 12"))
    }

    @Test("sequence numbers compare and unwrap across the 16-bit wrap")
    func sequenceWrap() {
        #expect(SequenceNumber.isNewer(0, than: 65535))
        #expect(!SequenceNumber.isNewer(65535, than: 0))
        #expect(SequenceNumber.distance(from: 65530, to: 5) == 11)
        var u = SequenceUnwrapper()
        #expect(u.unwrap(65534) == 65534)
        #expect(u.unwrap(1) == 65537)
        #expect(u.unwrap(65535) == 65535)  // reordered, before the wrap
        #expect(u.unwrap(2) == 65538)
    }
}

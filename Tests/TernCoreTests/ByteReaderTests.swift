import Testing
import TernCore

@Suite("ByteReader and ByteWriter")
struct ByteReaderTests {
    @Test("integers round-trip in network byte order")
    func integersRoundTripBigEndian() throws {
        var writer = ByteWriter()
        writer.write(UInt8(0xAB))
        writer.write(UInt16(0x1234))
        writer.writeUInt24(0x56_789A)
        writer.write(UInt32(0xDEAD_BEEF))
        writer.writeUInt48(0x0102_0304_0506)
        writer.write(UInt64(0x1122_3344_5566_7788))
        let bytes = writer.finish()
        #expect(bytes.prefix(6) == [0xAB, 0x12, 0x34, 0x56, 0x78, 0x9A])

        var reader = ByteReader(bytes)
        #expect(try reader.readUInt8() == 0xAB)
        #expect(try reader.readUInt16() == 0x1234)
        #expect(try reader.readUInt24() == 0x56_789A)
        #expect(try reader.readUInt32() == 0xDEAD_BEEF)
        #expect(try reader.readUInt48() == 0x0102_0304_0506)
        #expect(try reader.readUInt64() == 0x1122_3344_5566_7788)
        #expect(reader.isEmpty)
    }

    @Test("a short buffer throws truncated with the offset instead of trapping")
    func truncatedInputThrowsWithOffset() throws {
        var reader = ByteReader([0x01, 0x02, 0x03])
        _ = try reader.readUInt16()
        #expect(throws: ByteReaderError.truncated(needed: 4, available: 1, offset: 2)) {
            try reader.readUInt32()
        }
        // A failed read consumes nothing.
        #expect(try reader.readUInt8() == 0x03)
        #expect(throws: ByteReaderError.self) { try reader.readBytes(-1) }
    }

    @Test("readBytes returns a slice of the input without copying and sub-readers report their own offsets")
    func subReaderSlicesWithoutCopy() throws {
        let input: [UInt8] = [9, 1, 2, 3, 4, 5]
        var reader = ByteReader(input)
        _ = try reader.readUInt8()
        var sub = try reader.readSubReader(3)
        #expect(sub.offset == 0)
        #expect(try sub.readUInt8() == 1)
        #expect(sub.offset == 1)
        #expect(Array(sub.readRemaining()) == [2, 3])
        #expect(reader.offset == 4)
        #expect(Array(reader.readRemaining()) == [4, 5])
    }

    @Test("patch overwrites a length written earlier")
    func patchOverwritesLength() {
        var writer = ByteWriter()
        writer.write(UInt16(0))
        writer.write(contentsOf: [1, 2, 3])
        writer.patch(UInt16(3), at: 0)
        #expect(writer.bytes == [0, 3, 1, 2, 3])
    }

    @Test("hex encodes fingerprints and decodes with or without colons")
    func hexEncodesAndDecodes() {
        #expect(Hex.encode([0xAB, 0x01], separator: ":", uppercase: true) == "AB:01")
        #expect(Hex.encode([0xAB, 0x01]) == "ab01")
        #expect(Hex.decode("AB:01") == [0xAB, 0x01])
        #expect(Hex.decode("ab01") == [0xAB, 0x01])
        #expect(Hex.decode("abc") == nil)
        #expect(Hex.decode("zz") == nil)
    }
}

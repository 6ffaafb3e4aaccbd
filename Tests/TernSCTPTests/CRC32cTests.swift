import Testing
import TernCore
@testable import TernSCTP

@Suite struct CRC32cTests {
    @Test func knownVectorsFromRFC3720() {
        // RFC 3720 Appendix B.4 test vectors (iSCSI uses the same CRC32c).
        #expect(CRC32c.checksum([UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)
        #expect(CRC32c.checksum([UInt8](repeating: 0xFF, count: 32)) == 0x62A8_AB43)
        #expect(CRC32c.checksum((0..<32).map { UInt8($0) }) == 0x46DD_794E)
        #expect(CRC32c.checksum((0..<32).map { UInt8(31 - $0) }) == 0x113F_DB5C)
        #expect(CRC32c.checksum(Array("123456789".utf8)) == 0xE306_9283)
    }

    @Test func slicingMatchesBytewiseForEveryLengthAndAlignment() {
        var rng = SplitMix(seed: 7)
        let data = (0..<300).map { _ in UInt8.random(in: 0...255, using: &rng) }
        for start in 0..<9 {
            for end in stride(from: start, through: data.count, by: 7) {
                let slice = data[start..<end]
                var crc: UInt32 = 0xFFFF_FFFF
                for byte in slice {
                    crc ^= UInt32(byte)
                    for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
                }
                #expect(CRC32c.checksum(slice) == ~crc)
            }
        }
    }

    @Test func hardwareAndTablePathsAgreeForEveryLengthAndAlignment() {
        var rng = SplitMix(seed: 11)
        let data = (0..<300).map { _ in UInt8.random(in: 0...255, using: &rng) }
        for start in 0..<9 {
            for end in stride(from: start, through: data.count, by: 5) {
                let table = data[start..<end].withUnsafeBytes { CRC32c.tableUpdate(0xFFFF_FFFF, $0) }
                #expect(CRC32c.checksum(data[start..<end]) == ~table)
            }
        }
        #if arch(x86_64)
        #expect(CRC32c.usesHardware, "every x86-64 CPU since 2008 has SSE 4.2")
        #endif
    }

    @Test func hmacSHA256MatchesRFC4231Case2() {
        let mac = HMACSHA256.authenticate(Array("what do ya want for nothing?".utf8), key: Array("Jefe".utf8))
        #expect(mac.map { String(format: "%02x", $0) }.joined()
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        // RFC 4231 case 6: a key longer than the block size is hashed first.
        let long = HMACSHA256.authenticate(Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
                                           key: [UInt8](repeating: 0xaa, count: 131))
        #expect(long.map { String(format: "%02x", $0) }.joined()
                == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }
}

struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

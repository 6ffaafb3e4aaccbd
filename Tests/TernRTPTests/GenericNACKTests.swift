import Testing
import TernRTP
import TernCore

@Suite("Generic NACK PID/BLP (RFC 4585 §6.2.1)")
struct GenericNACKTests {
    struct Case: Sendable, CustomStringConvertible {
        let name: String
        let lost: [UInt16]
        let entries: [(UInt16, UInt16)]
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(name: "single", lost: [5], entries: [(5, 0)]),
        Case(name: "PID plus next 16 fill one entry", lost: Array(10...26), entries: [(10, 0xFFFF)]),
        Case(name: "17 after PID needs a second entry", lost: [10, 27], entries: [(10, 0), (27, 0)]),
        Case(name: "bit i is PID+i+1", lost: [100, 101, 103, 116], entries: [(100, 0b1000_0000_0000_0101)]),
        Case(name: "wraps across 65535", lost: [65534, 65535, 0, 1], entries: [(65534, 0b111)]),
        Case(name: "unordered with duplicates", lost: [3, 1, 2, 2, 1], entries: [(1, 0b11)]),
        Case(name: "empty", lost: [], entries: []),
    ]

    @Test("building entries from lost sequence numbers and reading them back", arguments: cases)
    func table(_ c: Case) {
        let nack = GenericNACK(senderSSRC: 1, mediaSSRC: 2, lost: c.lost)
        #expect(nack.entries.map { [$0.packetID, $0.bitmask] } == c.entries.map { [$0.0, $0.1] })
        let expected = Set(c.lost)
        #expect(Set(nack.lostSequenceNumbers) == expected)
        #expect(nack.lostSequenceNumbers.count == expected.count)
    }

    @Test("random loss sets survive build → bytes → parse → lost list")
    func randomSets() throws {
        var rng = SeededRandom(seed: 42)
        for _ in 0..<200 {
            let base = UInt16.random(in: 0...UInt16.max, using: &rng)
            let lost = (0..<Int.random(in: 1...60, using: &rng)).map { _ in base &+ UInt16.random(in: 0...300, using: &rng) }
            let nack = GenericNACK(senderSSRC: 1, mediaSSRC: 2, lost: [base] + lost)
            guard case let .genericNACK(parsed) = try RTCPPacket.parseCompound(RTCPPacket.genericNACK(nack).bytes).first else {
                Issue.record("not a NACK")
                return
            }
            #expect(Set(parsed.lostSequenceNumbers) == Set([base] + lost))
        }
    }
}

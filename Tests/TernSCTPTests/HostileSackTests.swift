import Testing
import TernCore
@testable import TernSCTP

/// SACKs a hostile (or broken) peer may send: gap blocks out of order, overlapping, repeated
/// hundreds of times. The sender takes their union, walking each outstanding chunk once.
@Suite struct HostileSackTests {
    /// a sends ten 200-byte messages (bundled, within the initial window) that never reach b.
    private static func tenInFlight(_ h: AssociationHarness) throws -> (first: UInt32, header: SCTPPacket) {
        for i in 0..<10 {
            try h.a.send([UInt8](repeating: UInt8(i), count: 200), streamIdentifier: 0, payloadProtocolIdentifier: 53, now: h.pair.now)
        }
        var packets: [SCTPPacket] = []
        while let bytes = h.a.pollTransmit(now: h.pair.now) { packets.append(try SCTPPacket.parse(bytes)) }
        let tsns = packets.flatMap { $0.chunks.compactMap { if case let .data(d) = $0 { d.tsn } else { nil } } }
        try #require(tsns.count == 10)
        return (tsns[0], try #require(packets.first))
    }

    private static func sack(_ h: AssociationHarness, to header: SCTPPacket, cumulative: UInt32, blocks: [(UInt16, UInt16)]) {
        let chunk = SackChunk(cumulativeTSNAck: cumulative, advertisedReceiverWindowCredit: 1 << 20,
                              gapBlocks: blocks.map { SackChunk.GapBlock(start: $0.0, end: $0.1) })
        h.a.handle(packet: header.answer(chunks: [.sack(chunk)], verificationTag: h.a.localTag).serialize(), now: h.pair.now)
    }

    @Test func unsortedOverlappingAndRepeatedBlocksAckTheirUnionOnce() throws {
        let h = AssociationHarness()
        #expect(h.connect())
        let (first, header) = try Self.tenInFlight(h)
        let flight = h.a.flightSize
        // Union of the blocks: offsets 1…7 and 9 (TSNs first … first+6 and first+8).
        Self.sack(h, to: header, cumulative: first &- 1, blocks: [(5, 7), (1, 3), (2, 6), (9, 9), (9, 9), (0, 4), (8, 7)])
        #expect(h.a.gapAckedCount == 8)
        #expect(h.a.flightSize == flight - 8 * (flight / 10))
        // Three hundred copies of a block covering everything outstanding change nothing more
        // than one would.
        Self.sack(h, to: header, cumulative: first &- 1, blocks: Array(repeating: (1, 10), count: 300))
        #expect(h.a.gapAckedCount == 10 && h.a.flightSize == 0)
        #expect(h.a.state == .established)
    }

    @Test func mergingKeepsDisjointBlocksAndJoinsTouchingOnes() {
        let merged = SCTPAssociation.mergedGapBlocks([.init(start: 10, end: 12), .init(start: 1, end: 2),
                                                      .init(start: 3, end: 4), .init(start: 0, end: 5),
                                                      .init(start: 6, end: 5), .init(start: 11, end: 20)])
        #expect(merged.map { [$0.start, $0.end] } == [[1, 4], [10, 20]])
    }
}

import Testing
import TernCore
@testable import TernSCTP

/// Reneging (RFC 9260 §6.2, §6.2.1 D iii): a receiver drops fragments held past a hole its peer
/// never fills, and a sender sends again what a peer acknowledged in a gap block and then did not.
@Suite struct RenegeTests {
    @Test func fragmentsPastAHoleThatStaysOpenAreDroppedAndNoLongerAcknowledged() throws {
        let h = AssociationHarness()
        #expect(h.connect())
        let start = h.pair.now
        let sent = try HostileFragmentTests.sendTinyMiddleFragments(h, packets: 10)   // 600, never complete
        #expect(h.b.reassembly.fragmentCount == sent)
        let timeout = try #require(h.b.config.staleFragmentTimeout)

        h.b.handleTimeout(now: start + timeout - .seconds(1))
        #expect(h.b.reassembly.fragmentCount == sent, "nothing dropped before the timeout")

        h.b.handleTimeout(now: start + timeout)
        #expect(h.b.reassembly.fragmentCount == 0 && h.b.reassembly.bufferedBytes == 0)
        #expect(h.b.stats.renegedFragments == sent)
        #expect(!h.b.received.hasGaps)
        var sack: SackChunk?
        while let bytes = h.b.pollTransmit(now: start + timeout) {
            for case let .sack(s) in try SCTPPacket.parse(bytes).chunks { sack = s }
        }
        let last = try #require(sack, "a SACK goes out at once")
        #expect(last.gapBlocks.isEmpty, "the dropped fragments are no longer acknowledged")
        #expect(h.b.state == .established)
    }

    @Test func theClockRestartsWhenTheCumulativeTSNMoves() throws {
        let h = AssociationHarness()
        #expect(h.connect())
        let start = h.pair.now
        _ = try HostileFragmentTests.sendTinyMiddleFragments(h, packets: 1)
        let first = try #require(h.b.staleFragmentDeadline)
        #expect(first == start + (h.b.config.staleFragmentTimeout ?? .zero))
        // The sender's retransmission of the first missing TSN arrives 10 s later: cum moves.
        let later = start + .seconds(10)
        h.a.handleTimeout(now: later)                        // T3 resends the message the template took
        while let bytes = h.a.pollTransmit(now: later) { h.b.handle(packet: bytes, now: later) }
        #expect(h.b.staleFragmentDeadline == later + (h.b.config.staleFragmentTimeout ?? .zero))
    }

    @Test func aSenderSendsAgainWhatThePeerRenegedOnAndEverythingArrives() throws {
        let h = AssociationHarness()
        #expect(h.connect())
        var packets: [[UInt8]] = []
        for i in 0..<5 { try h.a.send([UInt8(i)], streamIdentifier: 0, payloadProtocolIdentifier: 53, now: h.pair.now) }
        while let p = h.a.pollTransmit(now: h.pair.now) { packets.append(p) }   // never delivered
        let tsns = try packets.flatMap { try SCTPPacket.parse($0).chunks }.compactMap { chunk -> UInt32? in
            if case let .data(d) = chunk { d.tsn } else { nil }
        }
        #expect(tsns.count == 5)
        let template = try SCTPPacket.parse(try #require(packets.first))
        let cum = tsns[0] &- 1
        func sack(_ blocks: [SackChunk.GapBlock]) -> [UInt8] {
            template.answer(chunks: [.sack(SackChunk(cumulativeTSNAck: cum, advertisedReceiverWindowCredit: 1 << 20, gapBlocks: blocks))],
                            verificationTag: h.a.localTag).serialize()
        }
        h.a.handle(packet: sack([.init(start: 2, end: 5)]), now: h.pair.now)   // TSNs 2-5 gap-acked
        #expect(h.a.gapAckedCount == 4)
        h.a.handle(packet: sack([]), now: h.pair.now)                           // and then not: reneged
        #expect(h.a.gapAckedCount == 0 && h.a.stats.renegedByPeer == 4)

        #expect(h.pair.run(for: .seconds(30)) { h.drain(); return h.messagesB.count == 5 })
        #expect(h.messagesB.map(\.payload) == (0..<5).map { [UInt8($0)] })
    }

    @Test func aSackWithFewerBlocksThanTheHolesIsNotARenege() throws {
        let h = AssociationHarness()
        #expect(h.connect())
        var packets: [[UInt8]] = []
        for i in 0..<20 { try h.a.send([UInt8(i)], streamIdentifier: 0, payloadProtocolIdentifier: 53, now: h.pair.now) }
        while let p = h.a.pollTransmit(now: h.pair.now) { packets.append(p) }
        let template = try SCTPPacket.parse(try #require(packets.first))
        guard case let .data(first)? = template.chunks.first else { throw HostileFragmentError.noData }
        func sack(_ blocks: [SackChunk.GapBlock]) -> [UInt8] {
            template.answer(chunks: [.sack(SackChunk(cumulativeTSNAck: first.tsn &- 1, advertisedReceiverWindowCredit: 1 << 20,
                                                     gapBlocks: blocks))], verificationTag: h.a.localTag).serialize()
        }
        h.a.handle(packet: sack([.init(start: 2, end: 3), .init(start: 10, end: 20)]), now: h.pair.now)
        #expect(h.a.gapAckedCount == 13)
        // A receiver with room for one block reports the first only: chunks past it stay acked.
        h.a.handle(packet: sack([.init(start: 2, end: 3)]), now: h.pair.now)
        #expect(h.a.gapAckedCount == 13 && h.a.stats.renegedByPeer == 0)
    }

    struct Removal: Sendable, CustomTestStringConvertible {
        var ranges: [ClosedRange<UInt32>]
        var removed: [UInt32]
        var expected: [ClosedRange<UInt32>]
        var testDescription: String { "\(ranges) minus \(removed)" }
    }

    @Test(arguments: [
        Removal(ranges: [5...10], removed: [7], expected: [5...6, 8...10]),
        Removal(ranges: [5...10], removed: [5, 7, 10], expected: [6...6, 8...9]),
        Removal(ranges: [5...10, 20...22], removed: [5, 6, 7, 8, 9, 10, 21], expected: [20...20, 22...22]),
        Removal(ranges: [5...10], removed: [7, 7, 30, 2], expected: [5...6, 8...10]),
    ])
    func removingTSNsSplitsTheRanges(_ removal: Removal) {
        var tracker = ReceivedTSNTracker(peerInitialTSN: 3)   // cumulative 2
        for range in removal.ranges { for tsn in range { _ = tracker.insert(tsn) } }
        tracker.remove(removal.removed)
        #expect(tracker.ranges.map { $0.start...$0.end } == removal.expected)
    }
}

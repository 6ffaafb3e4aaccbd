import Testing
import TernCore
@testable import TernSCTP

/// RFC 9260 §6.2 on duplicates: a packet holding only duplicate DATA is acknowledged at once
/// (MUST); duplicates bundled with new DATA follow the usual every-second-packet rule (MAY).
@Suite struct DuplicateSackTests {
    /// A connected pair, and three 1,000-byte DATA chunks from a, each in its own packet, the
    /// first already delivered to b (and acknowledged, so b owes no SACK), none with the I bit.
    private static func setUp() throws -> (AssociationHarness, header: SCTPPacket, chunks: [DataChunk], now: Instant) {
        let h = AssociationHarness()
        #expect(h.connect())
        for i in 0..<3 {
            try h.a.send([UInt8](repeating: UInt8(i), count: 1000), streamIdentifier: 0, payloadProtocolIdentifier: 53, now: h.pair.now)
        }
        var packets: [SCTPPacket] = []
        while let bytes = h.a.pollTransmit(now: h.pair.now) { packets.append(try SCTPPacket.parse(bytes)) }
        var chunks: [DataChunk] = packets.flatMap { $0.chunks.compactMap { if case let .data(d) = $0 { d } else { nil } } }
        try #require(chunks.count == 3)
        for i in chunks.indices { chunks[i].flags &= ~0x08 }
        let header = try #require(packets.first)
        h.b.handle(packet: Self.packet(header, [chunks[0]]), now: h.pair.now)
        let now = h.pair.now + .milliseconds(300)   // past the delayed-SACK timer
        h.b.handleTimeout(now: now)
        #expect(Self.sacksSent(by: h.b, now: now).count == 1, "the first chunk acknowledged by the timer")
        return (h, header, chunks, now)
    }

    private static func packet(_ header: SCTPPacket, _ chunks: [DataChunk]) -> [UInt8] {
        header.with(chunks: chunks.map { .data($0) }).serialize()
    }

    /// The SACKs `association` sends now, without letting time pass.
    private static func sacksSent(by association: SCTPAssociation, now: Instant) -> [SackChunk] {
        var sacks: [SackChunk] = []
        while let bytes = association.pollTransmit(now: now) {
            guard let packet = try? SCTPPacket.parse(bytes) else { continue }
            for case let .sack(s) in packet.chunks { sacks.append(s) }
        }
        return sacks
    }

    @Test func aPacketOfDuplicatesOnlyIsAcknowledgedAtOnceAndReportsThem() throws {
        let (h, header, chunks, now) = try Self.setUp()
        h.b.handle(packet: Self.packet(header, [chunks[0]]), now: now)
        let sacks = Self.sacksSent(by: h.b, now: now)
        #expect(sacks.count == 1)
        #expect(sacks.first?.duplicateTSNs == [chunks[0].tsn])
    }

    @Test func duplicatesBundledWithNewInOrderDataWaitForTheSecondPacket() throws {
        let (h, header, chunks, now) = try Self.setUp()
        h.b.handle(packet: Self.packet(header, [chunks[0], chunks[1]]), now: now)
        #expect(Self.sacksSent(by: h.b, now: now).isEmpty, "one packet since the last SACK, no gap")
        h.b.handle(packet: Self.packet(header, [chunks[2]]), now: now)
        let sacks = Self.sacksSent(by: h.b, now: now)
        #expect(sacks.count == 1, "the second packet brings the SACK")
        #expect(sacks.first?.cumulativeTSNAck == chunks[2].tsn)
        #expect(sacks.first?.duplicateTSNs == [chunks[0].tsn], "the duplicate is still reported")
    }

    @Test func duplicatesBundledWithDataThatLeavesAGapAreAcknowledgedAtOnce() throws {
        let (h, header, chunks, now) = try Self.setUp()
        h.b.handle(packet: Self.packet(header, [chunks[0], chunks[2]]), now: now)
        let sacks = Self.sacksSent(by: h.b, now: now)
        #expect(sacks.count == 1)
        #expect(sacks.first?.gapBlocks.isEmpty == false)
    }
}

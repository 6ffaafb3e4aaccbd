import Testing
import TernCore
@testable import TernSCTP

/// Malformed input never crashes: table tests of specific defects, then thousands of
/// SeededRandom-mutated packets fed to the parser and to an established association.
@Suite struct MalformedInputTests {
    static func withCRC(_ bytes: [UInt8]) -> [UInt8] {
        var b = bytes
        guard b.count >= 12 else { return b }
        b[8] = 0; b[9] = 0; b[10] = 0; b[11] = 0
        SCTPPacket.finalize(&b)
        return b
    }

    @Test func truncatedAndInconsistentLengthsAreTypedErrors() {
        let header: [UInt8] = [0x13, 0x88, 0x13, 0x88, 0, 0, 0, 1, 0, 0, 0, 0]
        // Chunk length below 4.
        #expect(throws: SCTPPacketError.invalidChunkLength(type: 0, length: 2)) {
            try SCTPPacket.parse(Self.withCRC(header + [0, 3, 0, 2]))
        }
        // Chunk length past the end.
        #expect(throws: SCTPPacketError.invalidChunkLength(type: 3, length: 40)) {
            try SCTPPacket.parse(Self.withCRC(header + [3, 0, 0, 40, 0, 0, 0, 0]))
        }
        // DATA without user data.
        #expect(throws: SCTPPacketError.self) {
            try SCTPPacket.parse(Self.withCRC(header + [0, 3, 0, 16] + [UInt8](repeating: 0, count: 12)))
        }
        // SACK claiming more gap blocks than present.
        #expect(throws: SCTPPacketError.self) {
            try SCTPPacket.parse(Self.withCRC(header + [3, 0, 0, 16, 0, 0, 0, 1, 0, 0, 16, 0, 0, 9, 0, 0]))
        }
        // INIT with a zero Initiate Tag.
        #expect(throws: SCTPPacketError.invalidField(context: "INIT chunk", detail: "Initiate Tag is 0")) {
            try SCTPPacket.parse(Self.withCRC(header + [1, 0, 0, 20] + [UInt8](repeating: 0, count: 4) + [0, 1, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0]))
        }
        // Short common header.
        #expect(throws: SCTPPacketError.self) { try SCTPPacket.parse([1, 2, 3]) }
    }

    @Test func unknownChunkTypesFollowTheirUpperBits() throws {
        let h = AssociationHarness()
        #expect(h.connect())
        // Capture a real packet from a to b to learn b's tag.
        try h.a.send([1], streamIdentifier: 0, payloadProtocolIdentifier: 53, now: h.pair.now)
        let packet = try #require(h.a.pollTransmit(now: h.pair.now))
        let base = try SCTPPacket.parse(packet)
        let data = try #require(base.chunks.first)
        // 0x40 (01): stop processing and report — the DATA after it must be ignored, ERROR sent.
        var p = base
        p.chunks = [.unknown(type: 0x40, flags: 0, value: [1, 2, 3]), data]
        h.b.handle(packet: p.serialize(), now: h.pair.now)
        var sawError = false
        while let out = h.b.pollTransmit(now: h.pair.now) {
            if try SCTPPacket.parse(out).chunks.contains(where: { if case .error = $0 { true } else { false } }) { sawError = true }
        }
        #expect(sawError)
        h.drain()
        #expect(h.messagesB.isEmpty)
        // 0xC0 | 0x3F = 0xFF (11): skip, report, continue — the DATA is delivered.
        p.chunks = [.unknown(type: 0xFF, flags: 0, value: []), data]
        h.b.handle(packet: p.serialize(), now: h.pair.now)
        h.drain()
        #expect(h.messagesB.count == 1)
    }

    @Test func thousandsOfMutatedPacketsNeverCrashParserOrAssociation() throws {
        // Corpus: aiortc fixtures plus packets our own association sends during a session.
        var corpus = try FixtureRoundTripTests.lines("aiortc-session").map(\.1)
        corpus += try FixtureRoundTripTests.lines("aiortc-chunks").map(\.1)
        let h = AssociationHarness(conditions: .init(lossRate: 0.05))
        var toB: [[UInt8]] = []
        h.pair.deliverFilter = { to, bytes in
            if to == .b { toB.append(bytes) }
            return true
        }
        #expect(h.connect())
        let id = UInt16(1)
        for i in 0..<200 {
            try h.a.send([UInt8](repeating: UInt8(i & 0xff), count: 1 + i * 23 % 3000), streamIdentifier: id,
                         payloadProtocolIdentifier: 53, options: .init(unordered: i % 2 == 0, maxRetransmits: i % 3 == 0 ? 0 : nil),
                         now: h.pair.now)
        }
        h.a.resetStreams([id], now: h.pair.now)
        _ = h.pair.run(for: .seconds(30)) { h.messagesB.count >= 150 }
        corpus += toB
        #expect(corpus.count > 100)

        var rng = SeededRandom(seed: 2024)
        var parsed = 0, rejected = 0, victims = 0, malformedCounted = 0
        // A connected victim and its verification tag: corpus packets are re-tagged so they pass
        // §8.5 and reach the chunk handlers. A victim that a mutated ABORT closed is replaced.
        func makeVictim() throws -> (AssociationHarness, UInt32) {
            victims += 1
            let v = AssociationHarness(configA: .testDefault(seed: UInt64(victims) * 2),
                                       configB: .testDefault(seed: UInt64(victims) * 2 + 1))
            #expect(v.connect())
            try v.a.send([0], streamIdentifier: 0, payloadProtocolIdentifier: 53, now: v.pair.now)
            let tag = try SCTPPacket.parse(try #require(v.a.pollTransmit(now: v.pair.now))).verificationTag
            return (v, tag)
        }
        var (victim, victimTag) = try makeVictim()
        for round in 0..<5000 {
            if victim.b.terminated {
                malformedCounted += victim.b.stats.malformedPackets
                (victim, victimTag) = try makeVictim()
            }
            var bytes = corpus[Int.random(in: 0..<corpus.count, using: &rng)]
            let mutations = Int.random(in: 1...4, using: &rng)
            for _ in 0..<mutations {
                switch Int.random(in: 0..<5, using: &rng) {
                case 0 where !bytes.isEmpty:
                    bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
                case 1 where bytes.count > 12:
                    bytes.removeLast(Int.random(in: 1...min(16, bytes.count - 12), using: &rng))
                case 2:
                    bytes += (0..<Int.random(in: 1...16, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
                case 3 where bytes.count > 16:
                    // Corrupt a chunk length field.
                    let at = 14 + 4 * Int.random(in: 0..<max(1, (bytes.count - 16) / 4), using: &rng)
                    if at + 1 < bytes.count { bytes[at] = UInt8.random(in: 0...255, using: &rng) }
                default:
                    if bytes.count > 13 { bytes[12] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 14, 130, 192, 0x40, 0xC1][Int.random(in: 0..<17, using: &rng)] }
                }
            }
            if bytes.count >= 8, round % 2 == 0 {
                bytes[4] = UInt8(truncatingIfNeeded: victimTag >> 24); bytes[5] = UInt8(truncatingIfNeeded: victimTag >> 16)
                bytes[6] = UInt8(truncatingIfNeeded: victimTag >> 8); bytes[7] = UInt8(truncatingIfNeeded: victimTag)
            }
            let fixed = round % 4 == 3 ? bytes : Self.withCRC(bytes)
            if (try? SCTPPacket.parse(fixed)) != nil { parsed += 1 } else { rejected += 1 }
            victim.b.handle(packet: fixed, now: victim.pair.now)
            victim.pair.step()
        }
        #expect(parsed > 500, "mutations must reach the chunk logic, not only the checksum")
        #expect(rejected > 500)
        #expect(malformedCounted + victim.b.stats.malformedPackets > 0)
    }

    /// A peer that ignores a_rwnd and streams an endless message (B, never E) cannot make the
    /// receiver buffer more than its receive buffer plus one max-size message; what it refuses is
    /// counted.
    @Test func peerIgnoringTheReceiveWindowCannotExhaustMemoryAndItsRefusedChunksAreCounted() throws {
        var small = SCTPAssociationConfig.testDefault(seed: 8)
        small.receiveWindow = 64 * 1024
        small.maxMessageSize = 64 * 1024
        let h = AssociationHarness(configB: small)
        #expect(h.connect())
        try h.a.send([0], streamIdentifier: 0, payloadProtocolIdentifier: 53, now: h.pair.now)
        let first = try SCTPPacket.parse(try #require(h.a.pollTransmit(now: h.pair.now)))
        guard case let .data(template)? = first.chunks.first else { Issue.record("no DATA"); return }
        h.b.handle(packet: first.serialize(), now: h.pair.now)
        for i in 1...1000 {
            var chunk = DataChunk(tsn: template.tsn &+ UInt32(i), streamIdentifier: 0, streamSequenceNumber: 1,
                                  payloadProtocolIdentifier: 53, userData: ArraySlice(repeating: 7, count: 1000),
                                  beginning: i == 1, ending: false)
            chunk.flags = i == 1 ? 0x02 : 0
            let p = SCTPPacket(sourcePort: first.sourcePort, destinationPort: first.destinationPort,
                               verificationTag: first.verificationTag, chunks: [.data(chunk)])
            h.b.handle(packet: p.serialize(), now: h.pair.now)
        }
        #expect(h.b.reassembly.bufferedBytes <= h.b.receiveBufferSize + small.maxMessageSize)
        #expect(h.b.reassembly.bufferedBytes > 64 * 1024, "in-order probes were accepted up to the cap")
        let accepted = Int(h.b.received.cumulative &- template.tsn)
        #expect(accepted < 1000)
        #expect(h.b.stats.dataChunksBeyondWindow == 1000 - accepted, "every chunk refused is counted")
    }

    @Test func scatteredTSNsCannotGrowGapBookkeepingWithoutBound() throws {
        let h = AssociationHarness()
        #expect(h.connect())
        try h.a.send([0], streamIdentifier: 0, payloadProtocolIdentifier: 53, now: h.pair.now)
        let first = try SCTPPacket.parse(try #require(h.a.pollTransmit(now: h.pair.now)))
        guard case let .data(template)? = first.chunks.first else { Issue.record("no DATA"); return }
        for i in 1...10_000 {
            let chunk = DataChunk(tsn: template.tsn &+ UInt32(2 * i), streamIdentifier: 0, streamSequenceNumber: UInt16(i),
                                  payloadProtocolIdentifier: 53, userData: [1], unordered: true)
            let p = SCTPPacket(sourcePort: first.sourcePort, destinationPort: first.destinationPort,
                               verificationTag: first.verificationTag, chunks: [.data(chunk)])
            h.b.handle(packet: p.serialize(), now: h.pair.now)
        }
        #expect(h.b.received.ranges.count <= 8192)
        while h.b.pollTransmit(now: h.pair.now) != nil {}
        h.b.handle(packet: first.serialize(), now: h.pair.now)
        #expect(h.b.received.cumulative == template.tsn, "in-order data is still accepted at the cap")
    }
}

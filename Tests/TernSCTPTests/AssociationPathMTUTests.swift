import Testing
import TernCore
@testable import TernSCTP

/// DPLPMTUD (RFC 8899) inside a running association, over a simulated path whose MTU the test
/// sets: packets grow as far as the path carries them, chunks never do, and a path that shrinks
/// costs a timeout but loses nothing.
@Suite struct AssociationPathMTUTests {
    /// Sends `count` messages of `size` bytes from a to b and runs until all arrived.
    static func transfer(_ h: AssociationHarness, count: Int, size: Int, limit: Duration = .seconds(120)) throws -> Bool {
        let already = h.messagesB.count
        for i in 0..<count {
            let payload = AssociationTransferTests.payload(already + i) + [UInt8](repeating: 0x5A, count: size)
            try h.a.send(payload, streamIdentifier: 0, payloadProtocolIdentifier: 53, now: h.pair.now)
        }
        return h.pair.run(for: limit) { h.messagesB.count >= already + count }
    }

    @Test func packetsGrowToSixteenKibibytesOnAPathThatCarriesThem() throws {
        let h = AssociationHarness(conditions: .init(delay: .milliseconds(5)))
        var largest = 0
        h.pair.deliverFilter = { _, bytes in
            largest = max(largest, bytes.count)
            return true
        }
        #expect(h.connect())
        #expect(try Self.transfer(h, count: 200, size: 20_000))
        #expect(h.a.packetSize == 16_384)
        #expect(largest == 16_384)
        #expect(h.messagesB.enumerated().allSatisfy { AssociationTransferTests.index($1) == $0 })
        // Chunks stay cut for a base-size packet, so a retransmission always fits 1,200 bytes.
        #expect(h.a.outstanding.allSatisfy { $0.chunk.userData.count <= 1200 - 28 })
    }

    @Test func aPathThatDropsDatagramsOverFifteenHundredBytesSettlesOnEthernetSize() throws {
        let h = AssociationHarness(conditions: .init(delay: .milliseconds(5)))
        var dropped = 0
        h.pair.deliverFilter = { _, bytes in
            if bytes.count > 1_415 { dropped += 1; return false }
            return true
        }
        #expect(h.connect())
        #expect(try Self.transfer(h, count: 300, size: 5_000, limit: .seconds(60)))
        #expect(h.pair.run(for: .seconds(20)) { h.a.packetSize == 1_412 })
        #expect(h.b.packetSize == 1_412)
        #expect(dropped == 12, "each end: three probes of 16,384 and three of 8,912 bytes, and no data")
        #expect(h.a.stats.retransmittedChunks == 0)
    }

    @Test func aPathLimitFromTheLayerBelowSettlesAtOnceWithoutLosingAProbe() throws {
        let h = AssociationHarness(conditions: .init(delay: .milliseconds(5)))
        var dropped = 0
        h.pair.deliverFilter = { _, bytes in
            if bytes.count > 1_435 { dropped += 1; return false }
            return true
        }
        // What the peer connection passes down from the route's MTU: 1,500 − 28 − 37.
        h.a.setPathPacketLimit(1_435)
        h.b.setPathPacketLimit(1_435)
        #expect(h.connect())
        #expect(try Self.transfer(h, count: 100, size: 5_000))
        #expect(h.a.packetSize == 1_432)
        #expect(dropped == 0)
    }

    @Test func aBlackHoleAfterDiscoveryFallsBackToTheBaseSizeAndDeliversEverything() throws {
        let h = AssociationHarness(conditions: .init(delay: .milliseconds(5)))
        var pathMTU = Int.max
        h.pair.deliverFilter = { _, bytes in bytes.count <= pathMTU }
        #expect(h.connect())
        #expect(try Self.transfer(h, count: 50, size: 20_000))
        #expect(h.a.packetSize == 16_384)
        pathMTU = 1_200  // the path changes (a new route, a VPN) with packets in flight
        #expect(try Self.transfer(h, count: 50, size: 20_000))
        #expect(h.a.packetSize == 1_200)
        #expect(h.messagesB.count == 100)
        #expect(h.messagesB.enumerated().allSatisfy { AssociationTransferTests.index($1) == $0 })
    }

    @Test func withDiscoveryOffEveryPacketStaysAtTheBaseSize() throws {
        var config = SCTPAssociationConfig.testDefault(seed: 3)
        config.pathMTUDiscovery = false
        let h = AssociationHarness(configA: config, conditions: .init(delay: .milliseconds(5)))
        var largest = 0
        h.pair.deliverFilter = { to, bytes in
            if to == .b { largest = max(largest, bytes.count) }
            return true
        }
        #expect(h.connect())
        #expect(try Self.transfer(h, count: 20, size: 20_000))
        #expect(largest <= 1200)
    }

    @Test func aLonePacketAsksForAnImmediateSack() throws {
        // RFC 7053: with one packet in flight the receiver would otherwise wait for its delayed-SACK
        // timer; the I bit makes it answer at once.
        let h = AssociationHarness(conditions: .init(delay: .milliseconds(5)))
        var immediateBits: [Bool] = []
        h.pair.deliverFilter = { to, bytes in
            if to == .b, let packet = try? SCTPPacket.parse(bytes) {
                for case let .data(chunk) in packet.chunks { immediateBits.append(chunk.isImmediate) }
            }
            return true
        }
        #expect(h.connect())
        let sentAt = h.pair.now
        try h.a.send([1, 2, 3], streamIdentifier: 0, payloadProtocolIdentifier: 53, now: h.pair.now)
        #expect(h.pair.run(for: .seconds(1)) { h.a.totalQueuedBytes == 0 })
        #expect(immediateBits == [true])
        #expect(h.pair.now - sentAt < .milliseconds(20), "acknowledged after one round trip, not the delayed-SACK timer")
    }

    @Test func theArrivalWindowLimitCapsWhatThePeerKeepsInFlight() throws {
        let h = AssociationHarness(conditions: .init(delay: .milliseconds(20)))
        #expect(h.connect())
        h.b.arrivalWindowLimit = 100_000
        var largestFlight = 0
        let previous = h.pair.onStep
        h.pair.onStep = { [unowned h] in
            previous()
            largestFlight = max(largestFlight, h.a.flightSize)
        }
        #expect(try Self.transfer(h, count: 100, size: 20_000))
        #expect(largestFlight <= 100_000 + 16_384, "a_rwnd never exceeds the limit (one packet may overshoot)")
        #expect(largestFlight > 50_000, "the limit, not something else, was the bound")
    }
}

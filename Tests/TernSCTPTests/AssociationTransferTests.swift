import Testing
import TernCore
@testable import TernSCTP

@Suite struct AssociationTransferTests {
    static func payload(_ i: Int) -> [UInt8] {
        withUnsafeBytes(of: UInt32(i).bigEndian) { Array($0) } + [UInt8](repeating: UInt8(truncatingIfNeeded: i), count: i % 40)
    }

    static func index(_ m: SCTPMessage) -> Int {
        m.payload.prefix(4).reduce(0) { $0 << 8 | Int($1) }
    }

    @Test(arguments: [100_000])
    func reliableOrderedAtTenPercentLossDeliversAllInOrderExactlyOnce(count: Int) throws {
        let h = AssociationHarness(conditions: .init(lossRate: 0.10, delay: .milliseconds(20)), seed: 42)
        #expect(h.connect())
        for i in 0..<count {
            try h.a.send(Self.payload(i), streamIdentifier: 0, payloadProtocolIdentifier: 53, now: h.pair.now)
        }
        #expect(h.pair.run(for: .seconds(3600)) { h.messagesB.count >= count })
        #expect(h.messagesB.count == count)
        #expect(h.messagesB.enumerated().allSatisfy { Self.index($1) == $0 && $1.payload == Self.payload($0) })
        #expect(h.pair.link.dropped > 0)
        #expect(h.a.stats.retransmittedChunks > 0)
        // Sender bookkeeping returns to zero once everything is acknowledged.
        #expect(h.pair.run(for: .seconds(60)) { h.a.totalQueuedBytes == 0 })
        #expect(h.a.flightSize == 0 && h.a.pendingRetransmits == 0 && h.a.outstanding.isEmpty)
    }

    @Test func unorderedReliableAtTenPercentLossDeliversAllExactlyOnce() throws {
        let count = 10_000
        let h = AssociationHarness(conditions: .init(lossRate: 0.10, delay: .milliseconds(20)), seed: 7)
        #expect(h.connect())
        for i in 0..<count {
            try h.a.send(Self.payload(i), streamIdentifier: 2, payloadProtocolIdentifier: 53,
                         options: .init(unordered: true), now: h.pair.now)
        }
        #expect(h.pair.run(for: .seconds(3600)) { h.messagesB.count >= count })
        let indices = h.messagesB.map(Self.index)
        #expect(Set(indices).count == count && indices.count == count)
        #expect(indices != Array(0..<count), "with loss, unordered delivery should reorder something")
    }

    @Test func maxRetransmitsZeroAtTenPercentLossLosesSomeDuplicatesNoneAndDoesNotStall() throws {
        let count = 10_000
        let h = AssociationHarness(conditions: .init(lossRate: 0.10, delay: .milliseconds(20)), seed: 9)
        #expect(h.connect())
        for i in 0..<count {
            try h.a.send(Self.payload(i), streamIdentifier: 4, payloadProtocolIdentifier: 53,
                         options: .init(unordered: false, maxRetransmits: 0), now: h.pair.now)
        }
        // A final reliable marker on another stream proves the association did not stall.
        try h.a.send([1], streamIdentifier: 6, payloadProtocolIdentifier: 53, now: h.pair.now)
        #expect(h.pair.run(for: .seconds(600)) { h.messagesB.contains { $0.streamIdentifier == 6 } && h.a.totalQueuedBytes == 0 })
        let indices = h.messagesB.filter { $0.streamIdentifier == 4 }.map(Self.index)
        #expect(indices.count < count && indices.count > count / 2)
        #expect(Set(indices).count == indices.count)
        #expect(indices == indices.sorted(), "ordered stream stays in order across skipped messages")
        #expect(h.a.stats.abandonedMessages > 0)
    }

    @Test func sixteenMebibyteMessageArrivesIntact() throws {
        var config = SCTPAssociationConfig.testDefault(seed: 5)
        config.maxMessageSize = 16 * 1024 * 1024
        let h = AssociationHarness(configA: config, configB: config, conditions: .init(lossRate: 0.01, delay: .milliseconds(10)))
        #expect(h.connect())
        // A random 4093-byte block repeated: a prime length, so every fragment's bytes differ.
        var rng = SplitMix(seed: 3)
        let block = (0..<4093).map { _ in UInt8.random(in: 0...255, using: &rng) }
        var big: [UInt8] = []
        big.reserveCapacity(16 * 1024 * 1024 + block.count)
        while big.count < 16 * 1024 * 1024 { big += block }
        big.removeLast(big.count - 16 * 1024 * 1024)
        let start = h.pair.now
        try h.a.send(big, streamIdentifier: 0, payloadProtocolIdentifier: 53, now: h.pair.now)
        #expect(h.pair.run(for: .seconds(3600)) { !h.messagesB.isEmpty })
        // Virtual time: the receive buffer holds the whole message, so it is not trickled one chunk per RTT.
        print("16 MiB at 1% loss, 20 ms RTT took \(h.pair.now - start) of virtual time")
        #expect(h.pair.now - start < .seconds(60))
        #expect(h.messagesB.count == 1)
        #expect(h.messagesB.first?.payload == big)
    }

    @Test func fragmentedMessagesInterleavedWithSmallOnesKeepOrder() throws {
        let h = AssociationHarness(conditions: .init(lossRate: 0.05, delay: .milliseconds(5), jitter: .milliseconds(5)), seed: 3)
        #expect(h.connect())
        var sent: [[UInt8]] = []
        for i in 0..<300 {
            let size = i % 3 == 0 ? 5000 + i * 7 : 10 + i
            let p = Self.payload(i) + [UInt8](repeating: UInt8(i & 0xff), count: size)
            sent.append(p)
            try h.a.send(p, streamIdentifier: UInt16(i % 3), payloadProtocolIdentifier: 53, now: h.pair.now)
        }
        #expect(h.pair.run(for: .seconds(600)) { h.messagesB.count >= 300 })
        for s in 0..<3 {
            let got = h.messagesB.filter { $0.streamIdentifier == UInt16(s) }.map(\.payload)
            let want = sent.enumerated().filter { $0.offset % 3 == s }.map(\.element)
            #expect(got == want)
        }
    }
}

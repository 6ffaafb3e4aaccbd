import Testing
import TernCore
@testable import TernSCTP

/// A peer that sends message fragments it never completes: each held fragment costs the receive
/// window its bookkeeping as well as its bytes, and the reassembly queue holds a bounded number.
@Suite struct HostileFragmentTests {
    /// 1-byte middle fragments (no B, no E: never complete) at consecutive TSNs after a hole,
    /// 60 to a packet, until `packets` packets have gone to b.
    static func sendTinyMiddleFragments(_ h: AssociationHarness, packets: Int) throws -> Int {
        try h.a.send([1], streamIdentifier: 0, payloadProtocolIdentifier: 53, now: h.pair.now)
        let template = try SCTPPacket.parse(try #require(h.a.pollTransmit(now: h.pair.now)))
        guard case let .data(first)? = template.chunks.first else { throw HostileFragmentError.noData }
        var tsn = first.tsn &+ 2   // first.tsn + 1 stays missing
        var sent = 0
        for _ in 0..<packets {
            var chunks: [SCTPChunk] = []
            for _ in 0..<60 {
                chunks.append(.data(DataChunk(tsn: tsn, streamIdentifier: 0, streamSequenceNumber: 1, payloadProtocolIdentifier: 53,
                                              userData: [0x41], beginning: false, ending: false)))
                tsn &+= 1
            }
            h.b.handle(packet: template.with(chunks: chunks).serialize(), now: h.pair.now)
            while h.b.pollTransmit(now: h.pair.now) != nil {}
            sent += chunks.count
        }
        return sent
    }

    @Test func tinyFragmentsAreChargedTheirBookkeepingSoTheWindowClosesLongBeforeMemoryGrows() throws {
        var config = SCTPAssociationConfig.testDefault(seed: 7)
        config.receiveWindow = 1024 * 1024
        let h = AssociationHarness(configA: .testDefault(seed: 6), configB: config)
        #expect(h.connect())
        let sent = try Self.sendTinyMiddleFragments(h, packets: 200)   // 12,000 fragments of 1 byte
        let held = h.b.reassembly.fragmentCount
        // Charged 1 + 128 bytes each, the buffer takes at most receiveBufferSize / 129 of them
        // (about 8,100 for 1 MiB); counting only their 1 byte would have taken all 12,000.
        #expect(held <= h.b.receiveBufferSize / (1 + StreamReassembly.fragmentOverhead) + 1)
        #expect(held < sent)
        #expect(h.b.reassembly.bufferedBytes == held * (1 + StreamReassembly.fragmentOverhead))
        #expect(h.b.advertisedReceiveWindow < StreamReassembly.fragmentOverhead + 1, "the window is closed")
        #expect(h.b.state == .established, "the association goes on")
    }

    @Test func theQueueHoldsAtMostItsFragmentCapAndSaysSo() throws {
        var queue = ReassemblyQueue(maxMessageSize: 65_536, maxFragments: 100)
        var delivered: [SCTPMessage] = []
        var refused = 0
        for i in 0..<150 {
            let chunk = DataChunk(tsn: UInt32(10 + i), streamIdentifier: UInt16(i % 3), streamSequenceNumber: 0,
                                  payloadProtocolIdentifier: 53, userData: [0x42], beginning: false, ending: false)
            if queue.refuses(chunk) { refused += 1 } else { queue.insert(chunk, deliver: &delivered) }
        }
        #expect(queue.fragmentCount == 100 && refused == 50)
        // A whole message is never refused for the fragment cap: it is delivered, not held.
        let whole = DataChunk(tsn: 500, streamIdentifier: 5, streamSequenceNumber: 0, payloadProtocolIdentifier: 53,
                              userData: [1, 2, 3], unordered: true)
        #expect(!queue.refuses(whole))
        queue.insert(whole, deliver: &delivered)
        #expect(delivered.map(\.payload) == [[1, 2, 3]])
        // FORWARD TSN past them releases the held fragments and their charge.
        queue.forward(to: 1000, skipped: [], deliver: &delivered)
        #expect(queue.fragmentCount == 0 && queue.bufferedBytes == 0)
    }

    @Test func anAssociationCountsTheFragmentsItRefusesAtTheCap() throws {
        let h = AssociationHarness()
        #expect(h.connect())
        h.b.reassembly = ReassemblyQueue(maxMessageSize: 65_536, maxFragments: 500)
        _ = try Self.sendTinyMiddleFragments(h, packets: 10)   // 600 fragments
        #expect(h.b.reassembly.fragmentCount == 500)
        #expect(h.b.stats.fragmentsRefused == 100)
    }
}

enum HostileFragmentError: Error { case noData }

import Synchronization
import Testing
import TernCore
import TernTestSupport

@Suite("In-memory and simulated links")
struct TransportTests {
    @Test("an in-memory pair delivers each datagram whole to the other side")
    func inMemoryPairDeliversDatagrams() throws {
        let (a, b) = InMemoryDatagramTransport.pair()
        let received = Mutex<[[UInt8]]>([])
        b.setReceiveHandler { datagram in received.withLock { $0.append(datagram) } }
        try a.send([1, 2, 3])
        try a.send([4])
        #expect(received.withLock { $0 } == [[1, 2, 3], [4]])
    }

    @Test("a closed in-memory transport refuses to send and oversize datagrams are refused")
    func closedTransportRefuses() {
        let (a, _) = InMemoryDatagramTransport.pair(maximumDatagramSize: 10)
        #expect(throws: DatagramTransportError.tooLarge(size: 11, limit: 10)) {
            try a.send([UInt8](repeating: 0, count: 11))
        }
        a.close()
        #expect(throws: DatagramTransportError.closed) { try a.send([1]) }
    }

    @Test("a perfect simulated link delivers everything after its delay, in order")
    func perfectLinkDeliversInOrder() {
        var link = SimulatedLink(conditions: .init(delay: .milliseconds(10)))
        for i in 0..<5 { link.send(from: .a, datagram: [UInt8(i)], at: .zero) }
        #expect(link.deliverDue(at: Instant.zero + .milliseconds(9)).isEmpty)
        let due = link.deliverDue(at: Instant.zero + .milliseconds(10))
        #expect(due.map(\.datagram) == [[0], [1], [2], [3], [4]])
        #expect(due.allSatisfy { $0.to == .b })
        #expect(link.isIdle)
    }

    @Test("a lossy link drops about the asked share, the same way for the same seed")
    func lossyLinkIsDeterministic() {
        func run(seed: UInt64) -> (delivered: Int, dropped: Int) {
            var link = SimulatedLink(conditions: .init(lossRate: 0.3), seed: seed)
            for i in 0..<10_000 { link.send(from: .b, datagram: [UInt8(truncatingIfNeeded: i)], at: .zero) }
            return (link.deliverDue(at: .distantFuture).count, link.dropped)
        }
        let first = run(seed: 7)
        #expect(first == run(seed: 7))
        #expect(first.delivered + first.dropped == 10_000)
        #expect((2_700...3_300).contains(first.dropped))
    }

    @Test("jitter reorders datagrams and duplicates are counted")
    func jitterReordersAndDuplicates() {
        var link = SimulatedLink(conditions: .init(duplicateRate: 0.1, delay: .milliseconds(5), jitter: .milliseconds(20)), seed: 3)
        for i in 0..<200 { link.send(from: .a, datagram: [UInt8(i)], at: Instant.zero + .microseconds(i * 100)) }
        let order = link.deliverDue(at: .distantFuture).map { Int($0.datagram[0]) }
        #expect(order.count == 200 + link.duplicated)
        #expect(link.duplicated > 0)
        #expect(order != order.sorted())
    }
}

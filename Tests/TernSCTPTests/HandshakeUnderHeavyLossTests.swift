import Testing
import TernCore
@testable import TernSCTP

/// Set-up and first messages at 20 % loss each way (the lossy-call system test's condition):
/// both sides send INIT at once, as WebRTC endpoints do; every message sent right after
/// establishment must arrive, for many seeds.
@Suite struct HandshakeUnderHeavyLossTests {
    @Test(arguments: Array(UInt64(1)...UInt64(60)))
    func simultaneousOpenAtTwentyPercentLossDeliversEverything(seed: UInt64) throws {
        let h = AssociationHarness(conditions: .init(lossRate: 0.20, delay: .milliseconds(50), jitter: .milliseconds(10)), seed: seed)
        #expect(h.connect(), "seed \(seed): no association within 30 s")
        for i in 0..<200 {
            try h.a.send(AssociationTransferTests.payload(i), streamIdentifier: 1, payloadProtocolIdentifier: 53, now: h.pair.now)
            try h.b.send(AssociationTransferTests.payload(i), streamIdentifier: 2, payloadProtocolIdentifier: 53, now: h.pair.now)
        }
        let done = h.pair.run(for: .seconds(300)) { h.messagesB.count == 200 && h.messagesA.count == 200 }
        #expect(done, "seed \(seed): a→b \(h.messagesB.count)/200, b→a \(h.messagesA.count)/200, states \(h.a.state)/\(h.b.state), events A \(h.eventsA) B \(h.eventsB)")
    }
}

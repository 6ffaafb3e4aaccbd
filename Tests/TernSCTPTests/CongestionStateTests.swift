import Testing
import TernCore
@testable import TernSCTP

/// `SCTPAssociation.congestion` and the congestion counters in `stats`: what a trace of a
/// transfer's ramp-up (and W3C `RTCSctpTransportStats`) reads.
@Suite struct CongestionStateTests {
    private static func send(_ h: AssociationHarness, bytes: Int) throws {
        let message = [UInt8](repeating: 0x5A, count: 16 * 1024)
        for _ in 0..<(bytes / message.count) {
            try h.a.send(message, streamIdentifier: 0, payloadProtocolIdentifier: 53, now: h.pair.now)
        }
    }

    @Test func aLossFreeTransferStaysInSlowStartAndItsWindowGrows() throws {
        let h = AssociationHarness(conditions: .init(delay: .milliseconds(25)))
        #expect(h.connect())
        let initial = h.a.congestion
        #expect(initial.phase == .slowStart && initial.slowStartThreshold == nil && initial.bytesInFlight == 0)
        try Self.send(h, bytes: 2 * 1024 * 1024)
        var largest = initial.congestionWindow
        var phases: Set<SCTPCongestionState.Phase> = []
        h.pair.onStep = { [unowned h] in
            h.drain()
            largest = max(largest, h.a.congestion.congestionWindow)
            phases.insert(h.a.congestion.phase)
        }
        #expect(h.pair.run(for: .seconds(120)) { h.messagesB.count == 128 })
        #expect(h.pair.run(for: .seconds(5)) { h.a.congestion.bytesInFlight == 0 })
        let done = h.a.congestion
        #expect(largest >= 16 * initial.congestionWindow, "cwnd \(initial.congestionWindow) → \(largest)")
        #expect(!phases.contains(.fastRecovery) && h.a.stats.fastRecoveries == 0 && h.a.stats.retransmissionTimeouts == 0)
        #expect(done.unacknowledgedChunks == 0)
        let srtt = try #require(done.smoothedRoundTripTime)
        #expect(srtt >= .milliseconds(50) && srtt < .milliseconds(80), "smoothed RTT \(srtt) on a 50 ms round trip")
    }

    @Test func lossesHalveTheWindowAndAreCounted() throws {
        let h = AssociationHarness(conditions: .init(lossRate: 0.02, delay: .milliseconds(10)), seed: 7)
        #expect(h.connect())
        try Self.send(h, bytes: 4 * 1024 * 1024)
        var phases: Set<SCTPCongestionState.Phase> = []
        h.pair.onStep = { [unowned h] in
            h.drain()
            phases.insert(h.a.congestion.phase)
        }
        #expect(h.pair.run(for: .seconds(600)) { h.messagesB.count == 256 })
        #expect(h.a.stats.fastRecoveries > 0)
        #expect(phases.isSuperset(of: [.slowStart, .fastRecovery, .congestionAvoidance]), "\(phases)")
        #expect(h.a.congestion.slowStartThreshold != nil)
    }
}

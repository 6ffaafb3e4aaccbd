import Testing
import TernCore
import TernRTP

@Suite("Session statistics: SR/RR built from per-SSRC stats, RTT across two peers")
struct RTPSessionStatisticsTests {
    func ms(_ v: Int64) -> Instant { Instant(nanoseconds: v * 1_000_000) }

    @Test("two peers exchange media, SR and RR over 30 ms one-way delay: both see RTT ≈ 60 ms and W3C counts")
    func twoPeers() throws {
        let ntp = NTPTimestamp(seconds: 3_900_000_000, fraction: 0)
        // The peers' wallclocks differ by 7 s: RTT from LSR/DLSR does not depend on clock agreement.
        var alice = RTPSessionStatistics(localSSRC: 0xA, clock: NTPClockMapping(instant: .zero, ntp: ntp))
        var bob = RTPSessionStatistics(localSSRC: 0xB, clock: NTPClockMapping(instant: .zero, ntp: ntp + .seconds(7)))
        let delay: Int64 = 30
        for i in 0..<100 {
            // Alice sends every 10 ms; every 10th packet is lost.
            let p = RTPPacket(payloadType: 111, sequenceNumber: UInt16(i), timestamp: UInt32(i * 480), ssrc: 0xA, payload: [UInt8](repeating: 1, count: 50)[...])
            alice.recordSent(p, clockRate: 48000, at: ms(Int64(i) * 10))
            if i % 10 != 5 { bob.recordReceived(p, clockRate: 48000, at: ms(Int64(i) * 10 + delay)) }
        }
        // Alice's SR at 1000 ms reaches Bob at 1030; Bob's RR at 1100 reaches Alice at 1130.
        let sr = alice.makeReport(at: ms(1000))
        guard case let .senderReport(report) = sr else {
            Issue.record("expected an SR, got \(sr)")
            return
        }
        #expect(report.packetCount == 100 && report.octetCount == 5000)
        bob.handle(try RTCPPacket.parseCompound(sr.bytes), at: ms(1000 + delay))
        let rr = bob.makeReport(at: ms(1100))
        guard case let .receiverReport(bobReport) = rr, let block = bobReport.reports.first else {
            Issue.record("expected an RR with a block, got \(rr)")
            return
        }
        #expect(block.ssrc == 0xA)
        #expect(block.cumulativeLost == 10)
        alice.handle(try RTCPPacket.parseCompound(rr.bytes), at: ms(1100 + delay))
        let remote = try #require(alice.sending[0xA]?.remoteInboundStats)
        let rtt = try #require(remote.roundTripTime)
        #expect(abs(rtt - 0.060) < 0.0001)
        #expect(remote.packetsLost == 10)
        let inbound = try #require(bob.receiving[0xA]?.inboundStats)
        #expect(inbound.packetsReceived == 90)  // every packet that arrived, the probation run included
        #expect(inbound.packetsLost == 10)
        #expect(inbound.jitter < 0.0001)
        let outbound = try #require(alice.sending[0xA]?.outboundStats)
        #expect(outbound.packetsSent == 100 && outbound.bytesSent == 5000)
    }
}

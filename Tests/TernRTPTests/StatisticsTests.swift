import Testing
import TernCore
import TernRTP

@Suite("RTP statistics (RFC 3550 A.1, A.3, A.8; RTT from LSR/DLSR)")
struct StatisticsTests {
    func ms(_ v: Int64) -> Instant { Instant(nanoseconds: v * 1_000_000) }

    @Test("A.1: a source is on probation until two packets arrive in sequence; then the first counts too (W3C packetsReceived)",
          arguments: [100, 65535] as [UInt16])
    func probation(first start: UInt16) {
        var stats = ReceiveStatistics(ssrc: 1, clockRate: 90000)
        let first = stats.record(sequenceNumber: start, timestamp: 0, payloadBytes: 10, headerBytes: 12, at: ms(0))
        let second = stats.record(sequenceNumber: start &+ 1, timestamp: 0, payloadBytes: 10, headerBytes: 12, at: ms(1))
        #expect(!first)
        #expect(second)
        #expect(stats.received == 2)
        #expect(stats.expected == 2)
        #expect(stats.cumulativeLost == 0)
        #expect(stats.bytesReceived == 20 && stats.headerBytesReceived == 24)
        #expect(stats.packetsDiscardedByValidation == 0)
        stats.record(sequenceNumber: start &+ 3, timestamp: 0, payloadBytes: 10, headerBytes: 12, at: ms(2))
        #expect(stats.expected == 4 && stats.cumulativeLost == 1, "one missing after the run (across the wrap too)")
    }

    @Test("A.1: a probation run that breaks off is discarded and counted; the next run is accepted whole")
    func brokenProbationRun() {
        var stats = ReceiveStatistics(ssrc: 1, clockRate: 90000)
        for seq: UInt16 in [10, 500, 501] {
            stats.record(sequenceNumber: seq, timestamp: 0, payloadBytes: 10, headerBytes: 12, at: ms(0))
        }
        #expect(stats.packetsDiscardedByValidation == 1)
        #expect(stats.received == 2 && stats.expected == 2 && stats.bytesReceived == 20)
    }

    @Test("A.3: expected, lost and fraction lost over an interval, with the wrap counted in the extended sequence")
    func lossAccounting() {
        var stats = ReceiveStatistics(ssrc: 1, clockRate: 90000)
        var seq: UInt16 = 65530
        for i in 0..<20 {
            // Lose 4 of the 20 packets: i = 5, 6, 10, 15.
            if ![5, 6, 10, 15].contains(i) {
                stats.record(sequenceNumber: seq, timestamp: UInt32(i * 3000), payloadBytes: 100, headerBytes: 12, at: ms(Int64(i) * 33))
            }
            seq &+= 1
        }
        #expect(stats.extendedHighestSequence == 65536 + 13)  // 65530 + 19 wraps to 13 in cycle 1
        #expect(stats.expected == 20)  // from the first packet of the probation run (65530) to 13
        #expect(stats.cumulativeLost == 4)
        let block = stats.makeReportBlock(at: ms(700))
        #expect(block.cumulativeLost == 4)
        #expect(block.fractionLost == UInt8((4 << 8) / 20))
        #expect(block.extendedHighestSequence == 65549)
        // The next interval with no loss reports fraction 0 but the same cumulative loss.
        for i in 0..<5 {
            stats.record(sequenceNumber: seq, timestamp: 0, payloadBytes: 1, headerBytes: 12, at: ms(800 + Int64(i)))
            seq &+= 1
        }
        let next = stats.makeReportBlock(at: ms(900))
        #expect(next.fractionLost == 0)
        #expect(next.cumulativeLost == 4)
        #expect(stats.inboundStats.packetsLost == 4)
        #expect(stats.inboundStats.packetsReceived == 21)
    }

    @Test("hostile: a sequence number walking just under MAX_DROPOUT per packet wraps 65,536+ times without trapping")
    func sequenceWalkPastThirtyTwoBitCycles() {
        // 2^32 / 65536 cycles × ~22 packets per cycle: a 32-bit cycle count overflows near 1.44 M packets.
        var stats = ReceiveStatistics(ssrc: 1, clockRate: 90000)
        var seq: UInt16 = 0
        let step = ReceiveStatistics.maxDropout - 1
        let packets = 1_500_000
        for i in 0..<packets {
            stats.record(sequenceNumber: seq, timestamp: UInt32(truncatingIfNeeded: i), payloadBytes: 1, headerBytes: 12, at: ms(Int64(i)))
            seq = i < 2 ? seq &+ 1 : seq &+ step
        }
        // Every packet counts; every skipped number counts as lost.
        #expect(stats.received == UInt64(packets))
        #expect(stats.expected > Int64(UInt32.max))
        #expect(stats.cumulativeLost == stats.expected - Int64(stats.received))
        let block = stats.makeReportBlock(at: ms(Int64(packets)))
        #expect(block.fractionLost == 255)  // 2,997 of every 2,998 numbers never arrived
        #expect(block.cumulativeLost == 0x7F_FFFF)  // clamped to the 24-bit field
        #expect(block.extendedHighestSequence == UInt32(truncatingIfNeeded: Int64(stats.expected) - 1))  // base 0
    }

    @Test("duplicates (a retransmission whose original also arrived) are counted apart: loss never goes negative")
    func duplicates() {
        var stats = ReceiveStatistics(ssrc: 1, clockRate: 8000)
        for seq: UInt16 in [1, 2, 3, 3, 3, 5, 2, 4, 4] {
            stats.record(sequenceNumber: seq, timestamp: 0, payloadBytes: 1, headerBytes: 12, at: ms(0))
        }
        #expect(stats.received == 5 && stats.packetsDuplicated == 4)
        #expect(stats.cumulativeLost == 0)
        #expect(stats.makeReportBlock(at: ms(1)).cumulativeLost == 0)
    }

    @Test("duplicates are recognised across the 16-bit wrap and forgotten beyond the window")
    func duplicatesAcrossTheWrap() {
        var stats = ReceiveStatistics(ssrc: 1, clockRate: 8000)
        var seq: UInt16 = 65_000
        for _ in 0..<3_000 {
            stats.record(sequenceNumber: seq, timestamp: 0, payloadBytes: 1, headerBytes: 12, at: ms(0))
            seq &+= 1
        }
        stats.record(sequenceNumber: seq &- 10, timestamp: 0, payloadBytes: 1, headerBytes: 12, at: ms(1))
        #expect(stats.packetsDuplicated == 1 && stats.received == 3_000 && stats.cumulativeLost == 0)
    }

    @Test("A.1: a large jump is ignored once, accepted as a restart when the next packet follows it")
    func restart() {
        var stats = ReceiveStatistics(ssrc: 1, clockRate: 8000)
        for seq: UInt16 in 1...5 { stats.record(sequenceNumber: seq, timestamp: 0, payloadBytes: 1, headerBytes: 12, at: ms(0)) }
        let jump = stats.record(sequenceNumber: 30000, timestamp: 0, payloadBytes: 1, headerBytes: 12, at: ms(1))
        let follow = stats.record(sequenceNumber: 30001, timestamp: 0, payloadBytes: 1, headerBytes: 12, at: ms(2))
        #expect(!jump)
        #expect(follow)
        #expect(stats.expected == 2, "the restart counts from the jumped packet")
        #expect(stats.received == 2)
        #expect(stats.cumulativeLost == 0)
        #expect(stats.packetsDiscardedByValidation == 0)
        let lone = stats.record(sequenceNumber: 9_000, timestamp: 0, payloadBytes: 1, headerBytes: 12, at: ms(3))
        #expect(!lone && stats.packetsDiscardedByValidation == 1, "a jump no packet confirms stays discarded")
    }

    @Test("A.8: constant transit gives zero jitter; alternating ±10 ms transit converges toward 10 ms")
    func jitter() {
        var steady = ReceiveStatistics(ssrc: 1, clockRate: 90000)
        for i in 0..<50 {
            steady.record(sequenceNumber: UInt16(i), timestamp: UInt32(i * 3000), payloadBytes: 1, headerBytes: 12, at: Instant(nanoseconds: Int64(i) * 100_000_000 / 3 + 50_000_000))
        }
        #expect(steady.jitterSeconds < 0.0001)

        var bumpy = ReceiveStatistics(ssrc: 2, clockRate: 90000)
        for i in 0..<400 {
            let extra: Int64 = i % 2 == 0 ? 0 : 10  // every other packet 10 ms late: |D| = 10 ms each time
            bumpy.record(sequenceNumber: UInt16(i), timestamp: UInt32(i * 900), payloadBytes: 1, headerBytes: 12, at: ms(Int64(i) * 10 + extra))
        }
        #expect(abs(bumpy.jitterSeconds - 0.010) < 0.0005)
        let block = bumpy.makeReportBlock(at: ms(5000))
        #expect(abs(Double(block.jitter) - 900) < 45)
    }

    @Test("LSR/DLSR from the last SR, and RTT = A − LSR − DLSR on the sender")
    func roundTrip() {
        let clock = NTPClockMapping(instant: .zero, ntp: NTPTimestamp(seconds: 3_900_000_000, fraction: 0))
        var sender = SendStatistics(ssrc: 7, clockRate: 90000)
        var receiver = ReceiveStatistics(ssrc: 7, clockRate: 90000)
        // The sender sends packets, then an SR at t=1 s; it reaches the receiver 40 ms later.
        for i in 0..<10 {
            let p = RTPPacket(payloadType: 96, sequenceNumber: UInt16(i), timestamp: UInt32(i * 3000), ssrc: 7, payload: [1, 2, 3][...])
            sender.recordSent(p, at: ms(Int64(i) * 33))
            receiver.record(p, at: ms(Int64(i) * 33 + 40))
        }
        let sr = sender.makeSenderReport(at: ms(1000), clock: clock)
        #expect(sr.packetCount == 10 && sr.octetCount == 30)
        // RTP timestamp extrapolated: last 27000 at 297 ms, +703 ms at 90 kHz = 63270.
        #expect(sr.rtpTimestamp == 27000 + 63270)
        receiver.recordSenderReport(sr.ntpTimestamp, at: ms(1040))
        // The receiver holds it 250 ms, then its RR takes 40 ms back.
        let block = receiver.makeReportBlock(at: ms(1290))
        #expect(block.lastSenderReport == sr.ntpTimestamp.middle32)
        #expect(block.delaySinceLastSenderReport == 250 * 65536 / 1000)
        sender.recordReportBlock(block, at: ms(1330), clock: clock)
        guard let rtt = sender.roundTripTime else { Issue.record("no RTT"); return }
        #expect(abs(rtt.milliseconds - 80) < 0.1)
        #expect(abs((sender.remoteInboundStats.roundTripTime ?? 0) - 0.080) < 0.0001)
        #expect(sender.outboundStats.packetsSent == 10)
        #expect(sender.outboundStats.bytesSent == 30)
    }

    @Test("no LSR means no RTT")
    func noRTT() {
        #expect(SendStatistics.roundTripTime(ReportBlock(ssrc: 1), arrival: NTPTimestamp(rawValue: 1 << 40)) == nil)
    }

    @Test("a retransmission counts as received but leaves jitter alone")
    func retransmissionSkipsJitter() {
        var stats = ReceiveStatistics(ssrc: 1, clockRate: 90000)
        for i in 0..<10 where i != 5 {
            stats.record(sequenceNumber: UInt16(i), timestamp: UInt32(i * 3000), payloadBytes: 1, headerBytes: 12,
                         at: Instant(nanoseconds: Int64(i) * 100_000_000 / 3))
        }
        let before = stats.jitterUnits
        // Seq 5 recovered by RTX 120 ms late.
        stats.record(sequenceNumber: 5, timestamp: 15000, payloadBytes: 1, headerBytes: 12, at: Instant(nanoseconds: 5 * 100_000_000 / 3 + 120_000_000),
                     isRetransmission: true)
        #expect(stats.jitterUnits == before)
        #expect(stats.cumulativeLost == 0)
    }
}

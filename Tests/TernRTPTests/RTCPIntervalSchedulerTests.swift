import Testing
import TernCore
import TernRTP

@Suite("RTCP transmission interval (RFC 3550 §6.2, A.7)")
struct RTCPIntervalSchedulerTests {
    @Test("deterministic interval: minimum applies, halved before the first report")
    func minimum() {
        let t = RTCPIntervalScheduler.deterministicInterval(members: 2, senders: 1, rtcpBandwidth: 10_000, weSent: true,
                                                            averageRTCPSize: 100, initial: false, minimum: .seconds(5))
        #expect(t == 5)
        let first = RTCPIntervalScheduler.deterministicInterval(members: 2, senders: 1, rtcpBandwidth: 10_000, weSent: true,
                                                                averageRTCPSize: 100, initial: true, minimum: .seconds(5))
        #expect(first == 2.5)
    }

    @Test("large sessions scale the interval with members × size / bandwidth; senders share 25%")
    func scaling() {
        // 1000 receivers, 1 sender, 1000 octets/s of RTCP, 100-octet reports: receivers' share is 75%.
        let receiver = RTCPIntervalScheduler.deterministicInterval(members: 1001, senders: 1, rtcpBandwidth: 1000, weSent: false,
                                                                   averageRTCPSize: 100, initial: false, minimum: .seconds(5))
        #expect(abs(receiver - 100.0 * 1000 / 750) < 1e-9)
        let sender = RTCPIntervalScheduler.deterministicInterval(members: 1001, senders: 1, rtcpBandwidth: 1000, weSent: true,
                                                                 averageRTCPSize: 100, initial: false, minimum: .seconds(5))
        #expect(sender == 5)  // 100 × 1 / 250 = 0.4 s, below the minimum
    }

    @Test("reduced minimum is 360 / kbps seconds: 360 ms at 1 Mbit/s")
    func reducedMinimum() {
        #expect(RTCPIntervalScheduler.Configuration.reducedMinimum(sessionBandwidth: 1_000_000) == .milliseconds(360))
        #expect(RTCPIntervalScheduler.Configuration.webRTC(sessionBandwidth: 2_000_000).minimumInterval == .milliseconds(180))
    }

    @Test("randomised intervals stay within [0.5, 1.5] / (e − 3/2) of the deterministic value; with reconsideration they average the deterministic value")
    func randomisation() {
        let start = Instant.zero
        var scheduler = RTCPIntervalScheduler(configuration: .webRTC(sessionBandwidth: 1_000_000), now: start, seed: 7)
        var now = start
        var sends = 0
        var intervals: [Double] = []
        var last = start
        while sends < 2000 {
            now = scheduler.nextTransmission
            if scheduler.expire(now: now) {
                scheduler.didSend(size: 100, now: now)
                if sends > 0 { intervals.append((now - last).seconds) }
                last = now
                sends += 1
            }
        }
        let low = 0.36 * 0.5 / RTCPIntervalScheduler.compensation
        let high = 0.36 * 1.5 / RTCPIntervalScheduler.compensation
        #expect(intervals.allSatisfy { $0 >= low - 1e-6 && $0 <= high + 1e-6 })
        let mean = intervals.reduce(0, +) / Double(intervals.count)
        // The e − 3/2 compensation exists so that, after timer reconsideration, the
        // mean interval for a steady group comes out at the deterministic one (A.7).
        #expect(abs(mean - 0.36) < 0.36 * 0.05, "mean interval \(mean) s")
    }

    @Test("timer reconsideration: more members after scheduling pushes the report later")
    func reconsideration() {
        var scheduler = RTCPIntervalScheduler(configuration: .init(sessionBandwidth: 64_000), now: .zero, seed: 3)
        let firstDeadline = scheduler.nextTransmission
        scheduler.members = 500
        let sent = scheduler.expire(now: firstDeadline)
        #expect(!sent)
        #expect(scheduler.nextTransmission > firstDeadline)
    }

    @Test("reverse reconsideration: when members leave, the next report is pulled earlier in proportion")
    func reverseReconsideration() {
        var scheduler = RTCPIntervalScheduler(configuration: .init(sessionBandwidth: 64_000), now: .zero, seed: 5)
        scheduler.members = 100
        scheduler.didSend(size: 100, now: Instant.zero + .seconds(1))
        let now = Instant.zero + .seconds(2)
        let before = scheduler.nextTransmission
        scheduler.membersDecreased(to: 50, now: now)
        let expected = now.nanoseconds + (before.nanoseconds - now.nanoseconds) / 2
        #expect(abs(scheduler.nextTransmission.nanoseconds - expected) <= 1)
    }
}

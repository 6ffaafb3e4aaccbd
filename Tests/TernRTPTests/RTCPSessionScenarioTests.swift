import Testing
import TernCore
import TernRTP
import TernTestSupport

/// Two peers over a `SimulatedLink` (25 ms each way, 5% loss): Alice sends audio
/// (50 packets/s); both send compound RTCP when their RFC 3550 A.7 schedulers
/// say so. The reports carry what each side measured: Bob's loss and jitter
/// estimates reach Alice, and Alice's RTT comes out at the link's round trip.
@Suite("Scenario: RTCP reports over a lossy link")
struct RTCPSessionScenarioTests {
    @Test("RTT ≈ 50 ms, loss ≈ 5%, report intervals follow the reduced minimum")
    func reportsOverLossyLink() throws {
        var link = SimulatedLink(conditions: .init(lossRate: 0.05, delay: .milliseconds(25)), seed: 11)
        let ntp = NTPTimestamp(seconds: 3_900_000_000, fraction: 0)
        var alice = RTPSessionStatistics(localSSRC: 0xA, clock: NTPClockMapping(instant: .zero, ntp: ntp))
        var bob = RTPSessionStatistics(localSSRC: 0xB, clock: NTPClockMapping(instant: .zero, ntp: ntp + .seconds(1234)))
        // 500 kbit/s session: reduced minimum 360 / 500 = 0.72 s.
        let config = RTCPIntervalScheduler.Configuration.webRTC(sessionBandwidth: 500_000)
        var aliceTimer = RTCPIntervalScheduler(configuration: config, now: .zero, seed: 1)
        var bobTimer = RTCPIntervalScheduler(configuration: config, now: .zero, seed: 2)
        aliceTimer.members = 2; bobTimer.members = 2
        aliceTimer.senders = 1; bobTimer.senders = 1
        aliceTimer.weSent = true

        var now = Instant.zero
        var seq: UInt16 = 40000
        var reportsSent = (alice: 0, bob: 0)
        while now < Instant.zero + .seconds(60) {
            if now.nanoseconds % 20_000_000 == 0 {
                let p = RTPPacket(payloadType: 111, sequenceNumber: seq, timestamp: UInt32(truncatingIfNeeded: now.nanoseconds / 1_000_000 * 48),
                                  ssrc: 0xA, payload: [UInt8](repeating: 0, count: 80)[...])
                alice.recordSent(p, clockRate: 48000, at: now)
                link.send(from: .a, datagram: p.bytes, at: now)
                seq &+= 1
            }
            for delivery in link.deliverDue(at: now) {
                if let rtcp = try? RTCPPacket.parseCompound(delivery.datagram, allowReducedSize: false) {
                    if delivery.to == .a {
                        alice.handle(rtcp, at: now)
                        aliceTimer.didReceive(size: delivery.datagram.count + 28)
                    } else {
                        bob.handle(rtcp, at: now)
                        bobTimer.didReceive(size: delivery.datagram.count + 28)
                    }
                } else if let p = try? RTPPacket(parsing: delivery.datagram) {
                    bob.recordReceived(p, clockRate: 48000, at: now)
                }
            }
            if aliceTimer.expire(now: now) {
                let report = RTCPPacket.serialize([alice.makeReport(at: now),
                                                   .sourceDescription(SourceDescription(chunks: [.init(source: 0xA, items: [.cname("alice")])]))])
                link.send(from: .a, datagram: report, at: now)
                aliceTimer.didSend(size: report.count + 28, now: now)
                reportsSent.alice += 1
            }
            if bobTimer.expire(now: now) {
                let report = RTCPPacket.serialize([bob.makeReport(at: now),
                                                   .sourceDescription(SourceDescription(chunks: [.init(source: 0xB, items: [.cname("bob")])]))])
                link.send(from: .b, datagram: report, at: now)
                bobTimer.didSend(size: report.count + 28, now: now)
                reportsSent.bob += 1
            }
            now += .milliseconds(1)
        }
        let remote = try #require(alice.sending[0xA]?.remoteInboundStats)
        let inbound = try #require(bob.receiving[0xA]?.inboundStats)
        let rtt = try #require(remote.roundTripTime)
        print("60 s, 5% loss, 25 ms each way: Alice sent \(reportsSent.alice) reports, Bob \(reportsSent.bob); "
              + "RTT \(rtt * 1000) ms over \(remote.roundTripTimeMeasurements) measurements; "
              + "Bob measured \(inbound.packetsLost) lost of \(inbound.packetsReceived + UInt64(max(0, inbound.packetsLost))), "
              + "Alice was told \(remote.packetsLost); jitter \(inbound.jitter * 1000) ms")
        #expect(abs(rtt - 0.050) < 0.001)
        #expect(remote.roundTripTimeMeasurements > 10)
        let lossRate = Double(inbound.packetsLost) / Double(inbound.packetsReceived + UInt64(inbound.packetsLost))
        #expect(abs(lossRate - 0.05) < 0.015)
        // Alice's view lags Bob's by at most one report interval's worth of packets.
        #expect(remote.packetsLost <= inbound.packetsLost && remote.packetsLost >= inbound.packetsLost - 10)
        #expect(inbound.jitter < 0.001)
        // Mean interval ≈ 0.72 s deterministic: about 83 reports a side in 60 s; allow the randomisation.
        #expect((60...110).contains(reportsSent.alice) && (60...110).contains(reportsSent.bob))
    }
}

import Foundation
import Testing
import TernCore
import TernMedia
import TernRTP
@testable import TernPeer

/// Transport-wide congestion control feedback from the peer connection's media engine (receive
/// side, draft-holmer-rmcat-transport-wide-cc-extensions-01): what a libwebrtc sender needs to
/// estimate the bandwidth and ramp its video up.
@Suite struct MediaEngineTransportCCTests {
    static let extensionID: UInt8 = 3
    static func at(_ ms: Int64) -> Instant { .zero + .milliseconds(ms) }

    private func receiver(transportCC: UInt8?) -> MediaEngine {
        var engine = MediaEngine(localRTCPSSRC: 0xABCD, cname: "test",
                                 ntpMapping: NTPClockMapping(instant: .zero, ntp: NTPTimestamp(wallClock: Date())),
                                 now: .zero, seed: 9)
        engine.configure(senders: [], receivers: [ReceiveStreamConfiguration(
            mid: "0", kind: .audio, announcedSSRCs: [0x1234], payloadTypes: [111: ("opus", 48_000)],
            midExtensionID: nil, nackEnabled: false, transportCCExtensionID: transportCC)])
        return engine
    }

    private func packet(sequence: UInt16, transportSequence: UInt16) -> [UInt8] {
        var bytes: [UInt8] = []
        RTPPacket(payloadType: 111, sequenceNumber: sequence, timestamp: UInt32(sequence) * 960, ssrc: 0x1234,
                  headerExtension: RTPHeaderExtension(elements: [RTPHeaderExtensionElement(
                    id: Self.extensionID, value: [UInt8(transportSequence >> 8), UInt8(transportSequence & 0xff)])]),
                  payload: [0xf8, 0xff, 0xfe][...]).write(to: &bytes)
        return bytes
    }

    private func feedback(in rtcp: [[UInt8]]) throws -> [TransportWideCC] {
        try rtcp.flatMap { try RTCPPacket.parseCompound($0) }.compactMap {
            if case let .transportWideCC(feedback) = $0 { feedback } else { nil }
        }
    }

    @Test("arrivals are reported 100 ms after the first one: received and lost packets by transport sequence number")
    func feedbackReportsArrivalsAndLosses() throws {
        var engine = receiver(transportCC: Self.extensionID)
        var output = TransportCore.Output()
        // Transport sequence numbers 500…509 sent 10 ms apart; 503 and 507 never arrive.
        for index in 0..<10 where index != 3 && index != 7 {
            engine.receiveRTP(packet(sequence: UInt16(index), transportSequence: 500 + UInt16(index)),
                              now: Self.at(Int64(index) * 10), into: &output)
        }
        #expect(engine.nextTimeout.map { $0 <= Self.at(100) } == true, "a feedback is due 100 ms after the first arrival")
        engine.handleTimeout(now: Self.at(99), into: &output)
        #expect(try feedback(in: engine.takeQueuedRTCP()).isEmpty, "not before the interval")
        engine.handleTimeout(now: Self.at(100), into: &output)
        let sent = try feedback(in: engine.takeQueuedRTCP())
        let report = try #require(sent.first)
        #expect(sent.count == 1)
        #expect(report.senderSSRC == 0xABCD && report.mediaSSRC == 0x1234)
        #expect(report.baseSequenceNumber == 500 && report.packetStatusCount == 10)
        let results = report.packetResults
        #expect(results.filter { $0.status == .notReceived }.map(\.sequenceNumber) == [503, 507])
        // Arrival times keep their 10 ms spacing (250 µs ticks).
        let arrivals = results.compactMap(\.arrival)
        #expect(arrivals.count == 8)
        #expect(zip(arrivals, arrivals.dropFirst()).allSatisfy { $1 - $0 >= .milliseconds(10) && $1 - $0 <= .milliseconds(20) })
        #expect(engine.transportFeedbackSent == 1)

        // Nothing new: no feedback and no timer; the next arrival starts the next one.
        engine.handleTimeout(now: Self.at(200), into: &output)
        #expect(try feedback(in: engine.takeQueuedRTCP()).isEmpty)
        engine.receiveRTP(packet(sequence: 10, transportSequence: 510), now: Self.at(210), into: &output)
        engine.handleTimeout(now: Self.at(310), into: &output)
        let next = try #require(try feedback(in: engine.takeQueuedRTCP()).first)
        #expect(next.baseSequenceNumber == 510 && next.packetStatusCount == 1)
        #expect(next.feedbackPacketCount == report.feedbackPacketCount &+ 1)
    }

    @Test("above ~220 kbit/s arriving, a report goes 50 ms after the first arrival it covers (5 % of the rate, libwebrtc's rule); a slow stream keeps 100 ms")
    func feedbackIntervalFollowsTheIncomingRate() throws {
        func gaps(payload: Int) throws -> [Int64] {
            var engine = receiver(transportCC: Self.extensionID)
            var output = TransportCore.Output()
            var sentAt: [Int64] = []
            // A packet every 10 ms for 2 s: 100 packets a second of `payload` bytes.
            for index in 0..<200 {
                let now = Int64(index) * 10
                var bytes = packet(sequence: UInt16(index), transportSequence: UInt16(index))
                bytes += Array(repeating: 0, count: payload)
                engine.receiveRTP(bytes, now: Self.at(now), into: &output)
                engine.handleTimeout(now: Self.at(now), into: &output)
                if try !feedback(in: engine.takeQueuedRTCP()).isEmpty { sentAt.append(now) }
            }
            return zip(sentAt.dropFirst(), sentAt).map { $0 - $1 }.suffix(10)
        }
        // Arrivals every 10 ms: the first after a report comes 10 ms later, the next report
        // the interval after that.
        // ~400 kbit/s with headers: 50 ms once a second of arrivals is counted.
        let fast = try gaps(payload: 440)
        #expect(fast.allSatisfy { $0 == 60 }, "\(fast)")
        // ~75 kbit/s: 544 bits / (5 % of it) = 145 ms, held at 100 ms.
        let slow = try gaps(payload: 0)
        #expect(slow.allSatisfy { $0 == 110 }, "\(slow)")
    }

    @Test("video waiting in the pacer pushes the encoders back by its share of a second at the estimate (at most half), and past 250 ms of it a frame is not encoded")
    func pacerBacklogPushesTheEncodersBack() {
        var engine = MediaEngine(localRTCPSSRC: 0x7777, cname: "test",
                                 ntpMapping: NTPClockMapping(instant: .zero, ntp: NTPTimestamp(wallClock: Date())),
                                 now: .zero, seed: 3,
                                 bandwidth: BandwidthEstimator.Configuration(startRate: 400_000, minimumRate: 30_000, maximumRate: 400_000))
        #expect(engine.pacerPushback == 1 && !engine.videoBacklogged(now: .zero))
        // 10 KB of video: 200 ms at 400 kbit/s.
        engine.pacer.setTargetRate(0)
        for _ in 0..<10 { engine.pacer.enqueue(PacedRTP(bytes: [], transportSequenceOffset: nil), size: 1_000, priority: .video, now: .zero) }
        #expect(abs(engine.pacerPushback - 0.8) < 1e-9 && !engine.videoBacklogged(now: .zero))
        // 5 KB more, as retransmissions: 300 ms.
        for _ in 0..<5 {
            engine.pacer.enqueue(PacedRTP(bytes: [], transportSequenceOffset: nil, retransmissionOf: (1, 0)), size: 1_000,
                                 priority: .retransmission, now: .zero)
        }
        #expect(abs(engine.pacerPushback - 0.7) < 1e-9 && engine.videoBacklogged(now: .zero))
        // Audio does not count.
        for _ in 0..<100 { engine.pacer.enqueue(PacedRTP(bytes: [], transportSequenceOffset: nil), size: 1_000, priority: .audio, now: .zero) }
        #expect(abs(engine.pacerPushback - 0.7) < 1e-9)
        for _ in 0..<100 { engine.pacer.enqueue(PacedRTP(bytes: [], transportSequenceOffset: nil), size: 1_000, priority: .video, now: .zero) }
        #expect(engine.pacerPushback == 0.5, "never under half")
    }

    @Test("without the extension negotiated no feedback is sent")
    func noFeedbackWithoutTheExtension() throws {
        var engine = receiver(transportCC: nil)
        var output = TransportCore.Output()
        for index in 0..<5 {
            engine.receiveRTP(packet(sequence: UInt16(index), transportSequence: UInt16(index)), now: Self.at(Int64(index) * 10),
                              into: &output)
        }
        engine.handleTimeout(now: Self.at(500), into: &output)
        #expect(try feedback(in: engine.takeQueuedRTCP()).isEmpty)
    }

    @Test("paced packets are numbered as they leave: numbers follow the send order (audio overtakes queued video) and the send history holds when each left")
    func pacedPacketsAreNumberedAsTheyLeave() throws {
        let audio: UInt32 = 0x1234, video: UInt32 = 0x5678
        var sender = MediaEngine(localRTCPSSRC: 0x7777, cname: "test",
                                 ntpMapping: NTPClockMapping(instant: .zero, ntp: NTPTimestamp(wallClock: Date())),
                                 now: .zero, seed: 3)
        sender.configure(senders: [
            SendStreamConfiguration(mid: "0", kind: .audio, ssrc: audio, payloadType: 111, codecName: "opus", clockRate: 48_000,
                                    midExtensionID: nil, nackEnabled: false, transportCCExtensionID: Self.extensionID),
            SendStreamConfiguration(mid: "1", kind: .video, ssrc: video, payloadType: 96, codecName: "VP8", clockRate: 90_000,
                                    midExtensionID: nil, nackEnabled: false, transportCCExtensionID: Self.extensionID),
        ], receivers: [])
        // A 20-packet video frame, then an audio packet queued behind it.
        let frame = (0..<20).map { RTPPayloadUnit(payload: Array(repeating: 0x10, count: 1_100), marker: $0 == 19, timestamp: 0) }
        let frameAccepted = sender.send(frame, ssrc: video, now: .zero)
        #expect(frameAccepted)
        var now = Instant.zero
        var left: [(at: Instant, packet: RTPPacket, bytes: [UInt8])] = []
        for bytes in sender.takeQueuedRTP(now: now) { left.append((now, try RTPPacket(parsing: bytes), bytes)) }
        let audioAccepted = sender.send([RTPPayloadUnit(payload: [0xf8, 0xff, 0xfe], marker: true, timestamp: 960)], ssrc: audio, now: now)
        #expect(audioAccepted)
        while sender.pacer.queuedPackets > 0, let next = sender.pacer.nextTimeout {
            now = max(now, next)
            for bytes in sender.takeQueuedRTP(now: now) { left.append((now, try RTPPacket(parsing: bytes), bytes)) }
        }
        try #require(left.count == 21)
        let numbers = left.map { entry -> UInt16? in
            entry.packet.headerExtension?.value(forID: Self.extensionID).map { UInt16($0[$0.startIndex]) << 8 | UInt16($0[$0.startIndex + 1]) }
        }
        #expect(numbers == (0..<21).map { UInt16($0) }, "numbered in the order they left")
        #expect(left.firstIndex { $0.packet.ssrc == audio } == 1, "the audio packet overtook the video waiting in the pacer")
        #expect(left[20].at > .zero + .milliseconds(100), "the frame was spread over time, not sent at once")

        // The peer's feedback maps each number back to the time the packet left.
        var receiver = MediaEngine(localRTCPSSRC: 0x8888, cname: "peer",
                                   ntpMapping: NTPClockMapping(instant: .zero, ntp: NTPTimestamp(wallClock: Date())),
                                   now: .zero, seed: 4)
        receiver.configure(senders: [], receivers: [
            ReceiveStreamConfiguration(mid: "0", kind: .audio, announcedSSRCs: [audio], payloadTypes: [111: ("opus", 48_000)],
                                       midExtensionID: nil, nackEnabled: false, transportCCExtensionID: Self.extensionID),
            ReceiveStreamConfiguration(mid: "1", kind: .video, announcedSSRCs: [video], payloadTypes: [96: ("VP8", 90_000)],
                                       midExtensionID: nil, nackEnabled: false, transportCCExtensionID: Self.extensionID),
        ])
        var output = TransportCore.Output()
        for entry in left { receiver.receiveRTP(entry.bytes, now: entry.at + .milliseconds(10), into: &output) }
        receiver.handleTimeout(now: now + .seconds(1), into: &output)
        let rtcp = receiver.takeQueuedRTCP()
        let report = try #require(try feedback(in: rtcp).first)
        var history = sender.bandwidth.history
        let fates = history.feedback(for: report)
        #expect(fates.count == 21)
        #expect(fates.map(\.sendTime) == left.map(\.at), "send times are when each packet left the pacer")
    }
}

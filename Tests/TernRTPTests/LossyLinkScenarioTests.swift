import Testing
import TernCore
import TernRTP
import TernTestSupport

/// A synthetic video stream (no codec: frames of 4–10 packets, the first flagged
/// as a frame start, the last with the marker) over a `SimulatedLink` with 5%
/// loss in both directions. With NACK + send history + RTX, the receiver's frame
/// assembler completes nearly every frame; without, a frame survives only if all
/// of its packets do.
@Suite("Scenario: 5% loss link, NACK + RTX repair vs none")
struct LossyLinkScenarioTests {
    struct Result {
        var framesSent = 0
        var framesCompleted = 0
        var keyframeRequests = 0
        var nacksSent: UInt64 = 0
        var retransmissions: UInt64 = 0
        var originalsLost = 0
        /// Frames all of whose original packets crossed the link (an upper bound without repair).
        var framesIntact = 0
        var percentComplete: Double { 100 * Double(framesCompleted) / Double(framesSent) }
    }

    static let mediaSSRC: UInt32 = 0x1111
    static let rtxSSRC: UInt32 = 0x2222
    static let receiverSSRC: UInt32 = 0x3333

    static func run(nack: Bool, seed: UInt64, frames: Int = 600) -> Result {
        var link = SimulatedLink(conditions: .init(lossRate: 0.05, delay: .milliseconds(20), jitter: .milliseconds(5)), seed: seed)
        var frameSizes = SeededRandom(seed: seed &+ 1)
        var history = SendHistory(capacity: 2048, rtx: RTXEncoder(ssrc: rtxSSRC, payloadType: 97, initialSequenceNumber: 1000))
        // Link jitter reorders packets of a burst by up to 5 ms: wait that long before a first NACK.
        var generator = NACKGenerator(senderSSRC: receiverSSRC, mediaSSRC: mediaSSRC,
                                      configuration: .init(reorderingDelay: .milliseconds(6)))
        var assembler = FrameAssembler(configuration: .init(maxWait: .milliseconds(250)), isFrameStart: { $0.payload.first == 1 })
        let rtt = Duration.milliseconds(50)
        var result = Result()
        var seq: UInt16 = 65000  // wraps during the run
        var now = Instant.zero
        var delivered = Set<UInt16>()
        var frameSeqs: [[UInt16]] = []
        let frameInterval = Duration.nanoseconds(33_333_333)
        var nextFrame = Instant.zero
        let end = Instant.zero + frameInterval * frames + .seconds(2)

        func receive(_ packet: RTPPacket, at now: Instant) {
            generator.received(sequenceNumber: packet.sequenceNumber, at: now)
            let out = assembler.insert(packet, at: now)
            result.framesCompleted += out.frames.count
            if out.keyframeNeeded { result.keyframeRequests += 1 }
        }

        while now < end {
            // Sender: a new frame every 33 ms.
            if now >= nextFrame, result.framesSent < frames {
                let count = Int.random(in: 4...10, using: &frameSizes)
                let timestamp = UInt32(result.framesSent) &* 3000
                frameSeqs.append((0..<count).map { seq &+ UInt16($0) })
                for i in 0..<count {
                    var payload = [UInt8](repeating: 0xAB, count: 1000)
                    payload[0] = i == 0 ? 1 : 0
                    let packet = RTPPacket(marker: i == count - 1, payloadType: 96, sequenceNumber: seq, timestamp: timestamp,
                                           ssrc: mediaSSRC, payload: payload[...])
                    history.store(packet, at: now)
                    link.send(from: .a, datagram: packet.bytes, at: now)
                    seq &+= 1
                }
                result.framesSent += 1
                nextFrame += frameInterval
            }
            // Deliveries.
            for delivery in link.deliverDue(at: now) {
                switch delivery.to {
                case .b:
                    guard let packet = try? RTPPacket(parsing: delivery.datagram) else { continue }
                    if packet.ssrc == mediaSSRC { delivered.insert(packet.sequenceNumber) }
                    if packet.ssrc == rtxSSRC {
                        if let original = try? RTXDecoder.unwrap(packet, originalSSRC: mediaSSRC, originalPayloadType: 96) {
                            receive(original, at: now)
                        }
                    } else {
                        receive(packet, at: now)
                    }
                case .a:
                    guard let rtcp = try? RTCPPacket.parseCompound(delivery.datagram) else { continue }
                    for case let .genericNACK(request) in rtcp {
                        for rtx in history.respond(to: request, at: now, rtt: rtt) {
                            link.send(from: .a, datagram: rtx.bytes, at: now)
                            history.retransmissionLeft(rtx, at: now)
                        }
                    }
                }
            }
            // Receiver timers.
            if nack, let request = generator.poll(now: now, rtt: rtt) {
                link.send(from: .b, datagram: RTCPPacket.genericNACK(request).bytes, at: now)
            }
            let timed = assembler.poll(now: now)
            result.framesCompleted += timed.frames.count
            if timed.keyframeNeeded { result.keyframeRequests += 1 }
            now += .milliseconds(1)
        }
        result.nacksSent = generator.nackPacketsSent
        result.retransmissions = history.retransmitted
        result.originalsLost = link.dropped
        result.framesIntact = frameSeqs.filter { $0.allSatisfy(delivered.contains) }.count
        return result
    }

    @Test("with NACK ≥ 98% of frames complete; without NACK clearly fewer", arguments: [2026, 7, 424242] as [UInt64])
    func nackVersusNone(seed: UInt64) {
        let with = Self.run(nack: true, seed: seed)
        let without = Self.run(nack: false, seed: seed)
        print(String(describing: "seed \(seed), 5% loss, \(with.framesSent) frames: with NACK+RTX \(with.framesCompleted) complete "
            + "(\(with.percentComplete.formatted2)%), \(with.nacksSent) NACKs, \(with.retransmissions) RTX for \(with.originalsLost) datagrams dropped, "
            + "\(with.keyframeRequests) keyframe requests; without NACK \(without.framesCompleted) complete "
            + "(\(without.percentComplete.formatted2)%) of \(without.framesIntact) that arrived intact, \(without.keyframeRequests) keyframe requests"))
        #expect(with.percentComplete >= 98)
        #expect(without.percentComplete < with.percentComplete - 10)
        // Without repair, every frame that arrived intact is assembled.
        #expect(without.framesCompleted == without.framesIntact)
        #expect(with.retransmissions > 0)
        // Repair stays proportionate: on average fewer than 3 retransmissions per datagram the link dropped.
        #expect(with.retransmissions < UInt64(3 * with.originalsLost))
    }
}

extension Double {
    var formatted2: String { String((self * 100).rounded() / 100) }
}

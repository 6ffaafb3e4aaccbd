import Testing
import TernCore
import TernRTP

@Suite("NACK generator, send history and RTX (RFC 4585, RFC 4588)")
struct LossRepairTests {
    func ms(_ v: Int64) -> Instant { Instant(nanoseconds: v * 1_000_000) }

    @Test("a gap is NACKed at once, re-requested after one RTT, and stops when the packet arrives")
    func gapLifecycle() throws {
        var gen = NACKGenerator(senderSSRC: 1, mediaSSRC: 2)
        gen.received(sequenceNumber: 10, at: ms(0))
        gen.received(sequenceNumber: 14, at: ms(5))
        let polled = gen.poll(now: ms(5), rtt: .milliseconds(50))
        let first = try #require(polled)
        #expect(first.lostSequenceNumbers == [11, 12, 13])
        #expect(first.mediaSSRC == 2)
        let early = gen.poll(now: ms(30), rtt: .milliseconds(50))
        #expect(early == nil)
        #expect(gen.nextTimeout(rtt: .milliseconds(50)) == ms(55))
        gen.received(sequenceNumber: 12, at: ms(40))
        let polledAgain = gen.poll(now: ms(55), rtt: .milliseconds(50))
        let second = try #require(polledAgain)
        #expect(second.lostSequenceNumbers == [11, 13])
        #expect(gen.recovered == 1)
    }

    /// Drives a generator over a 50 packet/s stream (one every 20 ms) in virtual time; every
    /// `reorderEvery`-th packet is `late` ms late (arrives after its successor), every
    /// `loseEvery`-th never arrives. Returns the sequence numbers requested and the generator.
    private func run(packets: Int, reorderEvery: Int?, late: Int64, loseEvery: Int?) -> (requested: [UInt16], NACKGenerator) {
        var gen = NACKGenerator(senderSSRC: 1, mediaSSRC: 2, configuration: .init(maximumReorderingDelay: .milliseconds(40)))
        var arrivals: [(at: Int64, seq: UInt16)] = []
        for index in 0..<packets {
            if let loseEvery, index > 0, index % loseEvery == 0 { continue }
            let late = reorderEvery.map { index > 0 && index % $0 == 0 } == true ? late : 0
            arrivals.append((Int64(index) * 20 + late, UInt16(index)))
        }
        arrivals.sort { $0.at < $1.at }
        var requested: [UInt16] = []
        var next = 0
        for t in stride(from: Int64(0), through: Int64(packets) * 20 + 200, by: 1) {
            while next < arrivals.count, arrivals[next].at <= t {
                gen.received(sequenceNumber: arrivals[next].seq, at: ms(t))
                next += 1
            }
            if let nack = gen.poll(now: ms(t), rtt: .milliseconds(60)) { requested += nack.lostSequenceNumbers }
        }
        return (requested, gen)
    }

    @Test("on a link that reorders, the allowance learns the lateness: after the first few, late packets are not requested")
    func reorderingAllowanceLearnsTheLink() {
        // Every 5th packet 25 ms late: it arrives 5 ms after its successor opened the gap.
        let (requested, gen) = run(packets: 500, reorderEvery: 5, late: 25, loseEvery: nil)
        #expect(gen.reorderingAllowance > .milliseconds(5) && gen.reorderingAllowance <= .milliseconds(40))
        #expect(requested.count <= 3, "only the first late packets were requested: \(requested)")
        #expect(gen.spuriousRequests == UInt64(requested.count))
        #expect(gen.missingSequenceNumbers.isEmpty)
    }

    @Test("on a link that only loses, the allowance stays 0: every loss is requested at once")
    func lossWithoutReorderingIsRequestedAtOnce() {
        let (requested, gen) = run(packets: 500, reorderEvery: nil, late: 0, loseEvery: 10)
        #expect(gen.reorderingAllowance == .zero)
        #expect(Set(requested) == Set(stride(from: 10, to: 500, by: 10).map { UInt16($0) }))
        #expect(gen.spuriousRequests == 0)
    }

    @Test("retries are limited and old packets are given up")
    func retryLimit() {
        var gen = NACKGenerator(senderSSRC: 1, mediaSSRC: 2, configuration: .init(maxRetries: 3, maxAge: .seconds(10)))
        gen.received(sequenceNumber: 1, at: ms(0))
        gen.received(sequenceNumber: 3, at: ms(0))
        var requests = 0
        for t in stride(from: Int64(0), through: 1000, by: 100) where gen.poll(now: ms(t), rtt: .milliseconds(100)) != nil {
            requests += 1
        }
        #expect(requests == 3)
        #expect(gen.missingSequenceNumbers.isEmpty)
        #expect(gen.givenUp == 1)

        var aged = NACKGenerator(senderSSRC: 1, mediaSSRC: 2, configuration: .init(maxAge: .milliseconds(300)))
        aged.received(sequenceNumber: 1, at: ms(0))
        aged.received(sequenceNumber: 3, at: ms(0))
        _ = aged.poll(now: ms(0))
        let late = aged.poll(now: ms(400))
        #expect(late == nil)
        #expect(aged.givenUp == 1)
    }

    @Test("gaps across the sequence wrap are detected, and a huge gap asks for a keyframe")
    func wrapAndOverflow() throws {
        var gen = NACKGenerator(senderSSRC: 1, mediaSSRC: 2, configuration: .init(maxMissing: 100))
        gen.received(sequenceNumber: 65534, at: ms(0))
        gen.received(sequenceNumber: 1, at: ms(1))
        #expect(gen.missingSequenceNumbers == [65535, 0])
        let polled = gen.poll(now: ms(1))
        let nack = try #require(polled)
        #expect(nack.entries == [GenericNACK.Entry(packetID: 65535, bitmask: 1)])
        gen.received(sequenceNumber: 500, at: ms(2))
        let keyframe = gen.takeKeyframeRequest()
        #expect(keyframe)
        #expect(gen.missingSequenceNumbers.isEmpty)
    }

    @Test("send history answers a NACK with the stored packets, once per RTT, and misses evicted ones")
    func historyPlain() {
        var history = SendHistory(capacity: 8)
        for seq: UInt16 in 0..<20 {
            history.store(RTPPacket(payloadType: 96, sequenceNumber: seq, timestamp: 0, ssrc: 5, payload: [UInt8(seq)][...]), at: ms(Int64(seq)))
        }
        let nack = GenericNACK(senderSSRC: 9, mediaSSRC: 5, lost: [3, 15, 19])
        let resent = history.respond(to: nack, at: ms(30), rtt: .milliseconds(100))
        #expect(resent.map(\.sequenceNumber) == [15, 19])  // 3 was overwritten by 11
        #expect(history.missed == 1)
        for packet in resent { history.retransmissionLeft(packet, at: ms(30)) }
        let tooSoon = history.respond(to: nack, at: ms(50), rtt: .milliseconds(100))
        #expect(tooSoon.isEmpty)
        let afterRTT = history.respond(to: nack, at: ms(200), rtt: .milliseconds(100))
        #expect(afterRTT.map(\.sequenceNumber) == [15, 19])
    }

    @Test("a retransmission still waiting to leave is not queued again however often it is NACKed; the RTT counts from when it left")
    func pendingRetransmissionIsNotQueuedTwice() throws {
        var history = SendHistory(capacity: 64, rtx: RTXEncoder(ssrc: 0xAAAA, payloadType: 97, initialSequenceNumber: 0))
        for seq: UInt16 in 0...7 {  // the retransmission budget: what was sent
            history.store(RTPPacket(payloadType: 96, sequenceNumber: seq, timestamp: 0, ssrc: 5, payload: [1][...]), at: ms(0))
        }
        let nack = GenericNACK(senderSSRC: 9, mediaSSRC: 5, lost: [7])
        let first = try #require(history.respond(to: nack, at: ms(10), rtt: .milliseconds(50)).first)
        #expect(history.originalSequenceNumber(of: first) == 7)
        // Behind a full bottleneck the NACK repeats every RTT while the first answer waits in the pacer.
        for late in [100, 200, 400] {
            #expect(history.respond(to: nack, at: ms(Int64(late)), rtt: .milliseconds(50)).isEmpty, "at \(late) ms")
        }
        #expect(history.pendingRequests == 3)
        history.retransmissionLeft(first, at: ms(500))
        #expect(history.respond(to: nack, at: ms(530), rtt: .milliseconds(50)).isEmpty, "within 3/4 RTT of leaving")
        #expect(history.respond(to: nack, at: ms(560), rtt: .milliseconds(50)).count == 1)
        #expect(history.retransmitted == 2)
    }

    @Test("hostile: a NACK naming one packet 350 times (no RTT known yet) is answered with one retransmission")
    func duplicateNACKEntriesServedOnce() {
        var history = SendHistory(capacity: 64)
        history.store(RTPPacket(payloadType: 96, sequenceNumber: 7, timestamp: 0, ssrc: 5, payload: [1][...]), at: ms(0))
        let storm = GenericNACK(senderSSRC: 9, mediaSSRC: 5,
                                entries: Array(repeating: GenericNACK.Entry(packetID: 7, bitmask: 0), count: 350))
        let resent = history.respond(to: storm, at: ms(10))
        #expect(resent.map(\.sequenceNumber) == [7])
        #expect(history.duplicateRequests == 349)
        #expect(history.retransmitted == 1)
    }

    @Test("hostile: NACK storms for every packet, every RTT, resend at most the payload sent, in bursts of at most retransmissionBurst")
    func nackStormIsBoundedByWhatWasSent() {
        var history = SendHistory(capacity: 1024, rtx: RTXEncoder(ssrc: 0xAAAA, payloadType: 97, initialSequenceNumber: 0))
        history.retransmissionBurst = 20_000
        let payload = [UInt8](repeating: 0xEE, count: 1_000)[...]
        var sent = 0, resent = 0
        for round in 0..<50 {
            // 10 new packets (10,000 payload bytes) per 100 ms, then a NACK for all 100 most recent ones.
            for n in 0..<10 {
                let seq = UInt16(round * 10 + n)
                history.store(RTPPacket(payloadType: 96, sequenceNumber: seq, timestamp: 0, ssrc: 5, payload: payload), at: ms(Int64(round * 100)))
                sent += payload.count
            }
            let newest = round * 10 + 9
            let storm = GenericNACK(senderSSRC: 9, mediaSSRC: 5, lost: (max(0, newest - 99)...newest).map { UInt16($0) })
            let answered = history.respond(to: storm, at: ms(Int64(round * 100 + 50)), rtt: .milliseconds(10))
            for packet in answered { history.retransmissionLeft(packet, at: ms(Int64(round * 100 + 50))) }
            resent += answered.reduce(0) { $0 + $1.payload.count - RTXEncoder.osnSize }
            #expect(resent <= sent, "round \(round): resent \(resent) of \(sent) sent")
        }
        #expect(resent >= sent * 9 / 10, "the budget is spent, not wasted: \(resent) of \(sent)")
        #expect(history.rateLimitedRequests > 0)
    }

    @Test("with RTX, retransmissions carry the OSN on their own SSRC, PT and sequence, and unwrap to the original")
    func historyRTX() throws {
        var history = SendHistory(capacity: 64, rtx: RTXEncoder(ssrc: 0xAAAA, payloadType: 97, initialSequenceNumber: 65535))
        let original = RTPPacket(marker: true, payloadType: 96, sequenceNumber: 40, timestamp: 1234, ssrc: 0x5555, payload: [7, 8, 9][...])
        history.store(original, at: ms(0))
        let rtx = history.respond(to: GenericNACK(senderSSRC: 1, mediaSSRC: 0x5555, lost: [40]), at: ms(10))
        #expect(rtx.count == 1)
        let packet = try #require(rtx.first)
        #expect(packet.ssrc == 0xAAAA && packet.payloadType == 97 && packet.sequenceNumber == 65535)
        #expect(Array(packet.payload) == [0, 40, 7, 8, 9])
        #expect(history.rtx?.nextSequenceNumber == 0)
        let parsed = try RTPPacket(parsing: packet.bytes)
        #expect(try RTXDecoder.unwrap(parsed, originalSSRC: 0x5555, originalPayloadType: 96) == original)
        #expect(throws: RTPParseError.payloadTooShort(needed: 2, available: 1)) {
            try RTXDecoder.unwrap(RTPPacket(payloadType: 97, sequenceNumber: 0, timestamp: 0, ssrc: 1, payload: [1][...]),
                                  originalSSRC: 1, originalPayloadType: 96)
        }
    }

    @Test("with a reordering delay, a packet that was only late is never NACKed")
    func reorderingDelay() throws {
        var gen = NACKGenerator(senderSSRC: 1, mediaSSRC: 2, configuration: .init(reorderingDelay: .milliseconds(5)))
        gen.received(sequenceNumber: 1, at: ms(0))
        gen.received(sequenceNumber: 3, at: ms(0))
        #expect(gen.nextTimeout() == ms(5))
        let early = gen.poll(now: ms(2))
        #expect(early == nil)
        gen.received(sequenceNumber: 2, at: ms(3))  // it was only reordered
        let later = gen.poll(now: ms(10))
        #expect(later == nil)
        gen.received(sequenceNumber: 5, at: ms(10))
        let due = gen.poll(now: ms(15))
        #expect(due?.lostSequenceNumbers == [4])
    }
}

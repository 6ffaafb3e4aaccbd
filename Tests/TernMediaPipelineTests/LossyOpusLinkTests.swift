import Testing
import TernCore
import TernMedia
import TernRTP
import TernTestSupport

/// 10 s of a 440 Hz Opus tone over a link with 5 % loss and 0–40 ms jitter (so packets reorder),
/// decoded the way TernPeer does: back in order through AudioReorderBuffer, gaps concealed by
/// OpusStreamDecoder (FEC from the next packet, else PLC). The network lab found the tone bent to
/// 457–461 Hz when packets were decoded in arrival order with holes; each second must now read
/// 440 ± 2 Hz. The arrival-order figure is printed beside it.
@Suite("Opus tone over a lossy, reordering link")
struct LossyOpusLinkTests {
    static let tone = 440.0

    /// The dominant frequency of each whole second of decoded audio.
    static func run(reorder: Bool, seed: UInt64) throws -> (frequencies: [Double], lost: Int, concealed: Int) {
        let encoder = try OpusAudioEncoder()
        var source = SineToneSource(frequency: tone)
        var link = SimulatedLink(conditions: .init(lossRate: 0.05, delay: .milliseconds(50), jitter: .milliseconds(40)),
                                 seed: seed)
        var buffer = AudioReorderBuffer()
        let ordered = try OpusStreamDecoder()
        let arrivalOrder = try OpusAudioDecoder()
        var pendingLoss = 0, concealed = 0
        var pcm: [Int16] = []
        var sequence: UInt16 = 0

        func play(_ released: [AudioReorderBuffer.Output]) throws {
            for item in released {
                switch item {
                case let .lost(count): pendingLoss += count
                case let .packet(packet):
                    let frame = try OpusPayloader.frame(from: RTPPayloadUnit(
                        payload: Array(packet.payload), marker: packet.marker, timestamp: packet.timestamp,
                        sequenceNumber: packet.sequenceNumber))
                    let decoded = try ordered.decode(frame, afterLosing: pendingLoss)
                    concealed += decoded.concealed
                    pendingLoss = 0
                    for chunk in decoded.chunks { pcm += chunk }
                }
            }
        }

        let frames = 500  // 10 s of 20 ms frames
        var now = Instant.zero
        let end = Instant.zero + .milliseconds(Int64(frames) * 20 + 500)
        var sent = 0
        while now < end {
            if sent < frames, now >= Instant.zero + .milliseconds(Int64(sent) * 20) {
                let frame = try encoder.encode(source.nextFrame())
                let packet = RTPPacket(payloadType: 111, sequenceNumber: sequence, timestamp: frame.timestamp, ssrc: 7,
                                       payload: frame.data[...])
                sequence &+= 1
                sent += 1
                link.send(from: .a, datagram: packet.bytes, at: now)
            }
            for delivery in link.deliverDue(at: now) {
                let packet = try RTPPacket(parsing: delivery.datagram)
                if reorder {
                    try play(buffer.insert(packet, at: now))
                } else {
                    pcm += try arrivalOrder.decode(Array(packet.payload))
                }
            }
            if reorder { try play(buffer.poll(now: now)) }
            now = now + .milliseconds(1)
        }
        let seconds = pcm.count / 48_000
        let frequencies = (0..<seconds).compactMap { second in
            ToneDetector.dominantFrequency(in: Array(pcm[(second * 48_000)..<((second + 1) * 48_000)]))
        }
        return (frequencies, link.dropped, concealed)
    }

    @Test("in order with concealment every second reads 440 ± 2 Hz; arrival order does not", arguments: [UInt64(3), 11, 2026])
    func toneSurvivesLossAndReordering(seed: UInt64) throws {
        let fixed = try Self.run(reorder: true, seed: seed)
        let naive = try Self.run(reorder: false, seed: seed)
        let worst = { (values: [Double]) in values.map { abs($0 - Self.tone) }.max() ?? .infinity }
        print("seed \(seed): in order + concealment \(fixed.frequencies.map { Int($0.rounded()) }) Hz (worst ±\(worst(fixed.frequencies)), "
              + "\(fixed.lost) lost, \(fixed.concealed) concealed); arrival order \(naive.frequencies.map { Int($0.rounded()) }) Hz "
              + "(worst ±\(worst(naive.frequencies)))")
        #expect(fixed.frequencies.count >= 9)
        #expect(worst(fixed.frequencies) <= 2)
        #expect(fixed.lost > 0 && fixed.concealed > 0, "the link did lose packets and the decoder concealed them")
        #expect(worst(naive.frequencies) > worst(fixed.frequencies), "the arrival-order decode is the bug this guards against")
    }
}

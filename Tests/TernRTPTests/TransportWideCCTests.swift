import Testing
import TernCore
import TernRTP

@Suite("Transport-wide CC feedback (draft-holmer-rmcat-transport-wide-cc-extensions-01)")
struct TransportWideCCTests {
    // §3.1.3 Example 1: |0|0 0|0 0 0 0 0 1 1 0 1 1 1 0 1| — a run of "packet not received" of length 221.
    // §3.1.3 Example 2: |0|1 1|0 0 0 0 0 0 0 0 1 1 0 0 0| — a run of symbol 11 of length 24.
    // §3.1.4 Example 1: |1|0|0 1 1 1 1 1 0 0 0 1 1 1 0 0| — 1 not received, 5 received, 3 not, 3 received, 2 not.
    // §3.1.4 Example 2: |1|1|0 0 1 1 0 1 0 1 0 1 0 0 0 0| — 00, 11, 01, 01, 01, 00, 00.
    @Test("the draft's chunk examples decode and re-encode to the same 16 bits")
    func draftChunkExamples() {
        let runNotReceived = TransportWideCC.Chunk(0b0_00_0000011011101)
        #expect(runNotReceived == .runLength(.notReceived, length: 221))
        #expect(runNotReceived.raw == 0x00DD)

        let runSymbol11 = TransportWideCC.Chunk(0b0_11_0000000011000)
        #expect(runSymbol11 == .runLength(.reserved, length: 24))
        #expect(runSymbol11.raw == 0x6018)

        let oneBit = TransportWideCC.Chunk(0b1_0_01111100011100)
        let n = TransportWideCC.Status.notReceived, r = TransportWideCC.Status.receivedSmallDelta
        #expect(oneBit == .oneBitVector([n, r, r, r, r, r, n, n, n, r, r, r, n, n]))
        #expect(oneBit.raw == 0x9F1C)

        let twoBit = TransportWideCC.Chunk(0b1_1_00110101010000)
        #expect(twoBit == .twoBitVector([n, .reserved, r, r, r, n, n]))
        #expect(twoBit.raw == 0xCD50)
    }

    @Test("a hand-built feedback packet parses to statuses and arrival times")
    func parseHandBuilt() throws {
        // base 100, count 4, reference time 2 (128 ms), fb count 9;
        // chunk: two-bit vector [01, 00, 10, 01, 00, 00, 00] (last 3 beyond count);
        // deltas: 4 ticks (1 ms), large -8 ticks (-2 ms), 8 ticks (2 ms); then 2 bytes of padding (P bit, count 2).
        let bytes = hex("""
            af cd 0006 00000001 00000002
            0064 0004 000002 09
            d240 04 fff8 08 0002
            """)
        let packets = try RTCPPacket.parseCompound(bytes)
        guard case let .transportWideCC(fb) = packets.first else {
            Issue.record("not TWCC: \(packets)")
            return
        }
        #expect(fb.baseSequenceNumber == 100 && fb.packetStatusCount == 4 && fb.referenceTime == 2 && fb.feedbackPacketCount == 9)
        #expect(fb.statuses == [.receivedSmallDelta, .notReceived, .receivedLargeOrNegativeDelta, .receivedSmallDelta])
        #expect(fb.recvDeltas == [4, -8, 8])
        let results = fb.packetResults
        #expect(results.map(\.sequenceNumber) == [100, 101, 102, 103])
        #expect(results.map(\.arrival) == [.microseconds(129_000), nil, .microseconds(127_000), .microseconds(129_000)])
        #expect(RTCPPacket.transportWideCC(fb).bytes == bytes)
    }

    @Test("a 36-byte packet declaring 65,535 statuses in run-length chunks parses without expanding them")
    func hostileStatusCountParsesAsRuns() throws {
        // count 65,535 in eight runs of 8,191 "not received" (+7 more): no deltas follow.
        var body = hex("00000001 00000002 0000 ffff 000000 00")
        for _ in 0..<8 { body += [0x1F, 0xFF] }          // run, not received, 8191
        body += [0x00, 0x07]                              // run, not received, 7
        body += [0x00, 0x00]                              // padding to 32 bits
        let bytes = [0x8F, 205, 0x00, UInt8(body.count / 4)] + body
        let packets = try RTCPPacket.parseCompound(bytes)
        guard case let .transportWideCC(fb) = packets.first else {
            Issue.record("not TWCC: \(packets)")
            return
        }
        #expect(fb.packetStatusCount == 65_535 && fb.chunks.count == 9 && fb.recvDeltas.isEmpty)
        // A run of received packets needs a delta byte each: 8,191 of them cannot hide in 4 bytes.
        var short = hex("00000001 00000002 0000 1fff 000000 00")
        short += [0x3F, 0xFF, 0x01, 0x02]                 // run, small delta, 8191; two delta bytes
        #expect(throws: RTCPParseError.self) {
            try RTCPPacket.parseCompound([0x8F, 205, 0x00, UInt8(short.count / 4)] + short)
        }
    }

    @Test("negative reference time is sign-extended from 24 bits")
    func negativeReference() throws {
        let fb = TransportWideCC(senderSSRC: 1, mediaSSRC: 2, baseSequenceNumber: 0, packetStatusCount: 1, referenceTime: -1,
                                 feedbackPacketCount: 0, chunks: [.runLength(.receivedSmallDelta, length: 1)], recvDeltas: [0])
        let bytes = RTCPPacket.transportWideCC(fb).bytes
        #expect(Array(bytes[16..<19]) == [0xFF, 0xFF, 0xFF])
        #expect(try RTCPPacket.parseCompound(bytes) == [.transportWideCC(fb)])
    }

    struct BuildCase: Sendable, CustomStringConvertible {
        let name: String
        let arrivalsMs: [Double?]
        var description: String { name }
    }

    static let buildCases: [BuildCase] = [
        BuildCase(name: "all received, 1 ms apart", arrivalsMs: (0..<40).map { 1000 + Double($0) }),
        BuildCase(name: "long loss run", arrivalsMs: [1000] + Array(repeating: nil, count: 30) + [1100]),
        BuildCase(name: "mixed loss, large and negative deltas", arrivalsMs: [500, nil, 600, 590, nil, nil, 591, 592, 900, nil, 901, 901.25, 901.5, nil, 902]),
        BuildCase(name: "single packet", arrivalsMs: [64.5]),
        BuildCase(name: "sparse one-bit pattern", arrivalsMs: (0..<30).map { $0 % 3 == 0 ? nil : 2000 + Double($0) }),
    ]

    @Test("building from arrival times round-trips through bytes to the same times (250 µs resolution)", arguments: buildCases)
    func buildRoundTrip(_ c: BuildCase) throws {
        let arrivals: [Duration?] = c.arrivalsMs.map { $0.map { .microseconds(Int64($0 * 1000)) } }
        let fb = TransportWideCC(senderSSRC: 7, mediaSSRC: 8, feedbackPacketCount: 1, baseSequenceNumber: 65530, arrivals: arrivals)
        #expect(Int(fb.packetStatusCount) == arrivals.count)
        let parsed = try RTCPPacket.parseCompound(RTCPPacket.transportWideCC(fb).bytes)
        guard case let .transportWideCC(back) = parsed.first else {
            Issue.record("not TWCC")
            return
        }
        #expect(back == fb)
        let results = back.packetResults
        for (i, result) in results.enumerated() {
            #expect(result.sequenceNumber == 65530 &+ UInt16(i))
            switch arrivals[i] {
            case nil: #expect(result.status == .notReceived)
            case let expected?:
                let got = try #require(result.arrival)
                #expect(abs((got - expected).nanoseconds) <= 125_000, "packet \(i): \(got) vs \(expected)")
            }
        }
    }

    @Test("chunk encoder uses run-length for long runs and vectors for mixed statuses")
    func chunkChoice() {
        let n = TransportWideCC.Status.notReceived, r = TransportWideCC.Status.receivedSmallDelta, l = TransportWideCC.Status.receivedLargeOrNegativeDelta
        #expect(TransportWideCC.encodeChunks(Array(repeating: r, count: 100)) == [.runLength(r, length: 100)])
        #expect(TransportWideCC.encodeChunks([r, n, r, n, r, n, r, n, r, n, r, n, r, n]) == [.oneBitVector([r, n, r, n, r, n, r, n, r, n, r, n, r, n])])
        #expect(TransportWideCC.encodeChunks([r, l, n, r]) == [.twoBitVector([r, l, n, r, n, n, n])])
    }

    @Test("a delta beyond ±8191.75 ms ends the feedback before that packet")
    func deltaOverflow() {
        let fb = TransportWideCC(senderSSRC: 1, mediaSSRC: 2, feedbackPacketCount: 0, baseSequenceNumber: 0,
                                 arrivals: [.milliseconds(0), .milliseconds(1), .seconds(20)])
        #expect(fb.packetStatusCount == 2)
    }

    @Test("the recorder reports arrivals since the last feedback, with losses, reordering and the wrap")
    func recorder() throws {
        var recorder = TransportWideCCRecorder()
        func ms(_ v: Int64) -> Instant { Instant(nanoseconds: v * 1_000_000) }
        // 65534, 65535, (0 lost), 2, 1 (reordered) arriving 1 ms apart from t = 1000 ms.
        for (i, seq) in [UInt16(65534), 65535, 2, 1].enumerated() { recorder.record(transportSequenceNumber: seq, at: ms(1000 + Int64(i))) }
        let made = recorder.makeFeedback(senderSSRC: 1, mediaSSRC: 2)
        let first = try #require(made)
        #expect(first.baseSequenceNumber == 65534)
        #expect(first.feedbackPacketCount == 0)
        let results = first.packetResults
        #expect(results.map(\.sequenceNumber) == [65534, 65535, 0, 1, 2])
        #expect(results.map { $0.arrival != nil } == [true, true, false, true, true])
        // Arrival order 2 before 1 shows as a negative delta for seq 1.
        #expect(results[3].arrival.map { $0 > results[4].arrival ?? .zero } == true)
        #expect(first.recvDeltas.contains { $0 < 0 })
        let empty = recorder.makeFeedback(senderSSRC: 1, mediaSSRC: 2)
        #expect(empty == nil)

        recorder.record(transportSequenceNumber: 1, at: ms(1100))  // a late duplicate of a reported packet: ignored
        recorder.record(transportSequenceNumber: 3, at: ms(1100))
        let madeAgain = recorder.makeFeedback(senderSSRC: 1, mediaSSRC: 2)
        let second = try #require(madeAgain)
        #expect(second.baseSequenceNumber == 3 && second.packetStatusCount == 1 && second.feedbackPacketCount == 1)
        #expect(try RTCPPacket.parseCompound(RTCPPacket.transportWideCC(second).bytes) == [.transportWideCC(second)])
    }
}

import Testing
import TernCore
import TernRTP

/// Thousands of seeded mutations of valid packets: parsers must return a value or
/// a typed error, never trap; whatever parses must re-serialise to something that
/// parses to the same value.
@Suite("Malformed input never crashes the parsers")
struct ParserFuzzTests {
    static func mutate(_ input: [UInt8], _ rng: inout SeededRandom) -> [UInt8] {
        var bytes = input
        switch Int.random(in: 0..<5, using: &rng) {
        case 0:  // flip bits
            for _ in 0..<Int.random(in: 1...4, using: &rng) where !bytes.isEmpty {
                bytes[Int.random(in: 0..<bytes.count, using: &rng)] ^= UInt8(1) << UInt8.random(in: 0...7, using: &rng)
            }
        case 1:  // truncate
            bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &rng)))
        case 2:  // overwrite a byte with a random value (lengths, counts, ids)
            if !bytes.isEmpty { bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng) }
        case 3:  // append garbage
            bytes += (0..<Int.random(in: 1...16, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        default:  // random bytes with a plausible first byte
            bytes = (0..<Int.random(in: 0...64, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            if !bytes.isEmpty { bytes[0] = 0x80 | (bytes[0] & 0x3F) }
        }
        return bytes
    }

    static func rtpSeeds() throws -> [[UInt8]] {
        let names = ["aiortc_rtp_basic", "aiortc_rtp_marker_csrc", "aiortc_rtp_padding", "aiortc_rtp_ext_onebyte", "aiortc_rtp_ext_twobyte", "aiortc_rtx"]
        return try names.map { try fixture($0) }
    }

    static func rtcpSeeds() throws -> [[UInt8]] {
        let names = ["aiortc_rtcp_sr", "aiortc_rtcp_rr", "aiortc_rtcp_sdes", "aiortc_rtcp_bye", "aiortc_rtcp_nack", "aiortc_rtcp_pli",
                     "aiortc_rtcp_fir", "aiortc_rtcp_remb", "aiortc_rtcp_compound_sr_sdes"]
        var seeds = try names.map { try fixture($0) }
        seeds.append(RTCPPacket.transportWideCC(TransportWideCC(senderSSRC: 1, mediaSSRC: 2, feedbackPacketCount: 0, baseSequenceNumber: 9,
                                                                arrivals: [.milliseconds(1), nil, .milliseconds(3), .milliseconds(2), nil, .milliseconds(80)])).bytes)
        seeds.append(RTCPPacket.applicationDefined(ApplicationDefined(subtype: 1, ssrc: 1, name: 0x41424344, data: [1, 2, 3, 4][...])).bytes)
        return seeds
    }

    @Test("20,000 mutated RTP packets: parse, read extensions, re-serialise")
    func rtp() throws {
        let seeds = try Self.rtpSeeds()
        let map = HeaderExtensionMap([(1, .mid), (2, .absSendTime), (3, .audioLevel), (4, .transportWideCC), (5, .rtpStreamID)])
        var rng = SeededRandom(seed: 0xF022)
        var parsed = 0, rejected = 0
        for i in 0..<20_000 {
            let input = Self.mutate(seeds[i % seeds.count], &rng)
            do {
                let packet = try RTPPacket(parsing: input)
                parsed += 1
                _ = try? packet.headerExtension?.elements()
                _ = (packet.mid(map: map), packet.absSendTime(map: map), packet.audioLevel(map: map),
                     packet.transportSequenceNumber(map: map), packet.rtpStreamID(map: map))
                let again = try RTPPacket(parsing: packet.bytes)
                #expect(again == packet)
                _ = try? RTXDecoder.unwrap(packet, originalSSRC: 1, originalPayloadType: 96)
            } catch {
                rejected += 1
            }
        }
        print("RTP fuzz: \(parsed) parsed, \(rejected) rejected with typed errors")
        #expect(parsed > 0 && rejected > 0)
    }

    @Test("20,000 mutated RTCP datagrams: parse, then what parsed re-parses equal")
    func rtcp() throws {
        let seeds = try Self.rtcpSeeds()
        var rng = SeededRandom(seed: 0xC0FFEE)
        var parsed = 0, rejected = 0
        for i in 0..<20_000 {
            let input = Self.mutate(seeds[i % seeds.count], &rng)
            do {
                let packets = try RTCPPacket.parseCompound(input)
                parsed += 1
                for case let .transportWideCC(fb) in packets { _ = fb.packetResults }
                for case let .genericNACK(n) in packets { _ = n.lostSequenceNumbers }
                let again = try RTCPPacket.parseCompound(RTCPPacket.serialize(packets))
                #expect(again == packets, "input \(Hex.encode(input))")
            } catch {
                rejected += 1
            }
        }
        print("RTCP fuzz: \(parsed) parsed, \(rejected) rejected with typed errors")
        #expect(parsed > 0 && rejected > 0)
    }

    @Test("the frame assembler and NACK generator survive random input, and every frame released is well formed")
    func stateMachines() {
        var rng = SeededRandom(seed: 99)
        let isStart: @Sendable (RTPPacket) -> Bool = { $0.payload.first == 1 }
        var fa = FrameAssembler(configuration: .init(maxWait: .milliseconds(50), maxBufferedPackets: 256), isFrameStart: isStart)
        var gen = NACKGenerator(senderSSRC: 1, mediaSSRC: 2)
        var stats = ReceiveStatistics(ssrc: 2, clockRate: 90000)
        var now = Instant.zero
        var base: UInt16 = 0
        var released = 0
        for _ in 0..<5000 {
            now += .microseconds(Int64.random(in: 0...3000, using: &rng))
            // Mostly near the current position (reordering, duplicates, gaps), sometimes anywhere.
            let seq = rng.chance(0.05) ? UInt16.random(in: 0...UInt16.max, using: &rng) : base &+ UInt16.random(in: 0...12, using: &rng)
            if rng.chance(0.5) { base &+= 1 }
            let p = RTPPacket(marker: rng.chance(0.25), payloadType: 96, sequenceNumber: seq,
                              timestamp: UInt32(seq / 4), ssrc: 2, payload: [rng.chance(0.3) ? 1 : 0][...])
            var frames = fa.insert(p, at: now).frames
            frames += fa.poll(now: now).frames
            for frame in frames {
                released += 1
                // Well formed: starts with a frame start, ends with the marker, contiguous, one timestamp.
                #expect(frame.packets.first.map(isStart) == true)
                #expect(frame.packets.last?.marker == true)
                #expect(frame.packets.allSatisfy { $0.timestamp == frame.timestamp })
                #expect(zip(frame.packets, frame.packets.dropFirst()).allSatisfy { $1.sequenceNumber == $0.sequenceNumber &+ 1 })
                #expect(frame.packets.dropFirst().allSatisfy { !isStart($0) })
            }
            gen.received(sequenceNumber: p.sequenceNumber, at: now)
            _ = gen.poll(now: now)
            stats.record(p, at: now)
        }
        print("frame assembler fuzz: \(released) frames released, \(fa.framesDropped) dropped, \(fa.latePackets) late")
        #expect(released > 0)
        #expect(fa.bufferedPacketCount <= 256)
        #expect(gen.missingSequenceNumbers.count <= gen.configuration.maxMissing)
    }
}

/// Inputs `make fuzz` found, kept as regression tests.
@Suite struct RTCPFuzzFindingsTests {
    /// An SR with the P bit and a padding count of 6 (not a multiple of four, RFC 3550 §6.4.1):
    /// 58 bytes of "profile-specific extensions" were kept and written back as 60, so the packet
    /// did not survive a round trip (FuzzRTCP, 2026-11-28). Such a body is now refused.
    @Test func aReportLeftUnalignedByItsPaddingIsRefused() throws {
        var bytes: [UInt8] = [0xa0, 0xc8, 0x00, 0x16, 0x0e, 0x00, 0x0e, 0xf4, 0x00, 0x0e, 0x0e, 0x16, 0x0e, 0x0e, 0x0e, 0x0e,
                              0x0e, 0x0e, 0xf2]
        bytes += [UInt8](repeating: 0x37, count: 60)
        bytes += [0xf1, 0x1d, 0x00, 0x00, 0x00, 0xf1, 0x7f, 0x37, 0xff, 0xf1, 0xf1, 0x0e, 0x06]
        #expect(bytes.count == 92)
        #expect(throws: RTCPParseError.self) { try RTCPPacket.parseCompound(bytes) }
        // The same SR padded by a multiple of four still parses and round-trips.
        var aligned = Array(bytes.prefix(88)) + [0, 0, 0, 4]
        aligned[0] = 0xa0
        if let packets = try? RTCPPacket.parseCompound(aligned) {
            #expect(try RTCPPacket.parseCompound(RTCPPacket.serialize(packets)) == packets)
        } else {
            Issue.record("an aligned SR with padding should parse")
        }
    }
}

import Testing
import TernCore
import TernRTP

@Suite("RTCP packets: table tests per type, compound and reduced-size")
struct RTCPPacketTests {
    static let block = ReportBlock(ssrc: 0x0A0B_0C0D, fractionLost: 64, cumulativeLost: -2, extendedHighestSequence: 0x0002_0005,
                                   jitter: 90, lastSenderReport: 0x1234_5678, delaySinceLastSenderReport: 0x8000)

    /// Each packet type, built in Swift, written, parsed back equal.
    static let cases: [(String, RTCPPacket)] = [
        ("SR with block and extension", .senderReport(SenderReport(ssrc: 1, ntpTimestamp: NTPTimestamp(seconds: 3_900_000_000, fraction: 0x8000_0000),
                                                                  rtpTimestamp: 48000, packetCount: 10, octetCount: 1000,
                                                                  reports: [block], profileExtension: [1, 2, 3, 4][...]))),
        ("RR empty", .receiverReport(ReceiverReport(ssrc: 2))),
        ("RR two blocks", .receiverReport(ReceiverReport(ssrc: 2, reports: [block, ReportBlock(ssrc: 7)]))),
        ("SDES two chunks", .sourceDescription(SourceDescription(chunks: [
            .init(source: 1, items: [.cname("abc"), .init(type: 6, value: Array("tern".utf8)[...])]),
            .init(source: 2, items: [.cname("a")]),
        ]))),
        ("BYE with reason", .goodbye(Goodbye(sources: [1, 2], reason: Array("bye now".utf8)[...]))),
        ("BYE without reason", .goodbye(Goodbye(sources: [5]))),
        ("APP", .applicationDefined(ApplicationDefined(subtype: 3, ssrc: 9, name: 0x5445_524E, data: [1, 2, 3, 4][...]))),
        ("NACK", .genericNACK(GenericNACK(senderSSRC: 1, mediaSSRC: 2, lost: [10, 11, 26, 27]))),
        ("PLI", .pictureLossIndication(PictureLossIndication(senderSSRC: 1, mediaSSRC: 2))),
        ("FIR", .fullIntraRequest(FullIntraRequest(senderSSRC: 1, entries: [.init(ssrc: 2, sequenceNumber: 1), .init(ssrc: 3, sequenceNumber: 255)]))),
        ("REMB", .receiverEstimatedMaximumBitrate(ReceiverEstimatedMaximumBitrate(senderSSRC: 1, bitrate: 2_000_000, ssrcs: [5]))),
        ("TWCC", .transportWideCC(TransportWideCC(senderSSRC: 1, mediaSSRC: 2, feedbackPacketCount: 3, baseSequenceNumber: 65534,
                                                  arrivals: [.milliseconds(100), nil, .milliseconds(101), .milliseconds(90)]))),
        ("unknown type 207 (XR) kept raw", .unknown(RawRTCPPacket(count: 0, packetType: 207, body: [0, 0, 0, 1, 4, 0, 0, 2][...]))),
        ("unknown RTPFB FMT 3 kept raw", .unknown(RawRTCPPacket(count: 3, packetType: 205, body: [0, 0, 0, 1, 0, 0, 0, 2][...]))),
    ]

    @Test("every packet type writes then parses back equal", arguments: cases.map(\.0))
    func roundTrip(_ name: String) throws {
        let packet = try #require(Self.cases.first { $0.0 == name }?.1)
        let bytes = packet.bytes
        #expect(bytes.count % 4 == 0)
        #expect(bytes[0] >> 6 == 2)
        let parsed = try RTCPPacket.parseCompound(bytes)
        #expect(parsed == [packet])
        #expect(parsed[0].bytes == bytes)
    }

    @Test("a hand-built RR matches the RFC 3550 §6.4.2 layout byte for byte")
    func receiverReportLayout() throws {
        let bytes = RTCPPacket.receiverReport(ReceiverReport(ssrc: 0x1111_1111, reports: [Self.block])).bytes
        #expect(bytes == hex("""
            81 c9 0007 11111111
            0a0b0c0d 40 fffffe 00020005 0000005a 12345678 00008000
            """))
    }

    @Test("SDES chunks pad to 32 bits after the END item (§6.5)")
    func sdesPadding() {
        // CNAME "abc": 4 (SSRC) + 2 + 3 = 9, END → 10, pad to 12.
        let bytes = RTCPPacket.sourceDescription(SourceDescription(chunks: [.init(source: 1, items: [.cname("abc")])])).bytes
        #expect(bytes == hex("81ca0003 00000001 0103616263 000000"))
    }

    @Test("compound SR + SDES + BYE parses in order")
    func compound() throws {
        let sr = RTCPPacket.senderReport(SenderReport(ssrc: 1, ntpTimestamp: NTPTimestamp(rawValue: 5), rtpTimestamp: 0, packetCount: 0, octetCount: 0))
        let sdes = RTCPPacket.sourceDescription(SourceDescription(chunks: [.init(source: 1, items: [.cname("x")])]))
        let bye = RTCPPacket.goodbye(Goodbye(sources: [1]))
        let bytes = RTCPPacket.serialize([sr, sdes, bye])
        #expect(try RTCPPacket.parseCompound(bytes, allowReducedSize: false) == [sr, sdes, bye])
    }

    @Test("reduced-size RTCP (RFC 5506): a lone feedback packet is accepted only when allowed")
    func reducedSize() throws {
        let pli = RTCPPacket.pictureLossIndication(PictureLossIndication(senderSSRC: 1, mediaSSRC: 2)).bytes
        #expect(try RTCPPacket.parseCompound(pli).count == 1)
        #expect(throws: RTCPParseError.compoundMustStartWithReport(packetType: 206)) {
            try RTCPPacket.parseCompound(pli, allowReducedSize: false)
        }
    }

    @Test("an unknown packet in the middle is skipped, not fatal")
    func unknownInMiddle() throws {
        let rr = RTCPPacket.receiverReport(ReceiverReport(ssrc: 1))
        var bytes = rr.bytes
        bytes += hex("80 d0 0001 deadbeef")  // PT 208, one word of body
        bytes += RTCPPacket.pictureLossIndication(PictureLossIndication(senderSSRC: 1, mediaSSRC: 2)).bytes
        let parsed = try RTCPPacket.parseCompound(bytes)
        #expect(parsed.count == 3)
        #expect(parsed[1] == .unknown(RawRTCPPacket(count: 0, packetType: 208, body: hex("deadbeef")[...])))
    }

    @Test("padding (P bit) is removed before the body is parsed")
    func padding() throws {
        // RR with no blocks + 4 bytes padding: length 2 words after header.
        let parsed = try RTCPPacket.parseCompound(hex("a0c9 0002 00000009 00000004"))
        #expect(parsed == [.receiverReport(ReceiverReport(ssrc: 9))])
    }

    struct Malformed: Sendable, CustomStringConvertible {
        let name: String
        let bytes: [UInt8]
        let error: RTCPParseError
        var description: String { name }
    }

    static let malformed: [Malformed] = [
        Malformed(name: "empty", bytes: [], error: .empty),
        Malformed(name: "short header", bytes: hex("80c9"),
                  error: .truncated(packet: "header", field: "common header", offset: 0, underlying: .truncated(needed: 4, available: 2, offset: 0))),
        Malformed(name: "version 1", bytes: hex("40c90001 00000001"), error: .unsupportedVersion(found: 1, offset: 0)),
        Malformed(name: "length past end", bytes: hex("80c90005 00000001"),
                  error: .lengthExceedsInput(packetType: 201, declared: 24, available: 8, offset: 0)),
        Malformed(name: "RR count beyond body", bytes: hex("81c90001 00000001"),
                  error: .truncated(packet: "RR", field: "report block SSRC", offset: 8, underlying: .truncated(needed: 4, available: 0, offset: 4))),
        Malformed(name: "second packet bad padding", bytes: hex("80c90001 00000001 a0c90001 00000009"),
                  error: .invalidPadding(count: 9, bodyLength: 4, offset: 8)),
        Malformed(name: "TWCC run length zero", bytes: hex("8fcd0005 00000001 00000002 0000 0001 000000 00 0000 0000"),
                  error: .invalidField(packet: "transport-wide CC", field: "packet chunk", reason: "run length of zero", offset: 20)),
        Malformed(name: "TWCC missing deltas", bytes: hex("8fcd0005 00000001 00000002 0000 0002 000000 00 4002 0001"),
                  error: .truncated(packet: "transport-wide CC", field: "recv delta", offset: 24, underlying: .truncated(needed: 2, available: 0, offset: 20))),
    ]

    @Test("malformed RTCP gives a typed error naming packet, field and offset", arguments: malformed)
    func malformedInput(_ c: Malformed) {
        #expect(throws: c.error) { try RTCPPacket.parseCompound(c.bytes) }
    }

    @Test("NTP middle 32 bits and the clock mapping")
    func ntp() {
        let t = NTPTimestamp(seconds: 0x1234_5678, fraction: 0x9ABC_DEF0)
        #expect(t.middle32 == 0x5678_9ABC)
        let mapping = NTPClockMapping(instant: .zero, ntp: NTPTimestamp(seconds: 100, fraction: 0))
        #expect(mapping.ntp(at: Instant(nanoseconds: 1_500_000_000)) == NTPTimestamp(seconds: 101, fraction: 0x8000_0000))
    }
}

import Testing
import TernCore
import TernRTP

/// Packets serialised by aiortc 1.16.0 (see Fixtures/README.md): we parse them,
/// check the fields against the values the capture script used, and write them
/// back byte for byte.
@Suite("aiortc-generated fixtures parse and re-serialise identically")
struct RTPFixtureTests {
    static let rtpFixtures = ["aiortc_rtp_basic", "aiortc_rtp_marker_csrc", "aiortc_rtp_padding",
                              "aiortc_rtp_ext_onebyte", "aiortc_rtp_ext_twobyte", "aiortc_rtx"]
    static let rtcpFixtures = ["aiortc_rtcp_sr", "aiortc_rtcp_rr", "aiortc_rtcp_sdes", "aiortc_rtcp_bye", "aiortc_rtcp_nack",
                               "aiortc_rtcp_pli", "aiortc_rtcp_fir", "aiortc_rtcp_remb", "aiortc_rtcp_compound_sr_sdes"]

    @Test("RTP fixture round-trips byte for byte", arguments: rtpFixtures)
    func rtpRoundTrip(_ name: String) throws {
        let bytes = try fixture(name)
        #expect(try RTPPacket(parsing: bytes).bytes == bytes)
    }

    @Test("RTCP fixture round-trips byte for byte", arguments: rtcpFixtures)
    func rtcpRoundTrip(_ name: String) throws {
        let bytes = try fixture(name)
        let packets = try RTCPPacket.parseCompound(bytes)
        #expect(!packets.contains { if case .unknown = $0 { true } else { false } })
        #expect(RTCPPacket.serialize(packets) == bytes)
    }

    @Test("aiortc RTP fields decode to the values the capture script set")
    func rtpFields() throws {
        let basic = try RTPPacket(parsing: fixture("aiortc_rtp_basic"))
        #expect((basic.payloadType, basic.sequenceNumber, basic.timestamp, basic.ssrc) == (111, 4660, 0x1234_5678, 0x1122_3344))
        #expect(Array(basic.payload) == Array(0..<20))

        let csrc = try RTPPacket(parsing: fixture("aiortc_rtp_marker_csrc"))
        #expect(csrc.marker && csrc.sequenceNumber == 65535 && csrc.csrcs == [0x0102_0304, 0x0506_0708])

        let padded = try RTPPacket(parsing: fixture("aiortc_rtp_padding"))
        #expect(padded.paddingSize == 13)
        #expect(Array(padded.payload) == [0x90, 0xE0] + Array("hello".utf8))

        let map = HeaderExtensionMap([(1, .mid), (2, .absSendTime), (3, .audioLevel), (4, .transportWideCC), (5, .rtpStreamID)])
        let ext = try RTPPacket(parsing: fixture("aiortc_rtp_ext_onebyte"))
        #expect(ext.headerExtension?.isOneByte == true)
        #expect(ext.mid(map: map) == "0")
        #expect(ext.absSendTime(map: map) == 0x123456)
        #expect(ext.audioLevel(map: map)?.voiceActivity == true && ext.audioLevel(map: map)?.level == 42)
        #expect(ext.transportSequenceNumber(map: map) == 0xBEEF)
        #expect(ext.rtpStreamID(map: map) == "hi")

        let two = try RTPPacket(parsing: fixture("aiortc_rtp_ext_twobyte"))
        #expect(two.headerExtension?.isTwoByte == true)
        #expect(two.mid(map: map) == "a-very-long-mid-value")
        #expect(two.transportSequenceNumber(map: map) == 1)
    }

    @Test("aiortc's RTX packet unwraps to the original (RFC 4588), and our wrap matches aiortc's bytes")
    func rtx() throws {
        let rtx = try RTPPacket(parsing: fixture("aiortc_rtx"))
        let original = try RTXDecoder.unwrap(rtx, originalSSRC: 0x1111_1111, originalPayloadType: 96)
        #expect(original.sequenceNumber == 1000)
        #expect(original.timestamp == 5555 && original.marker)
        #expect(Array(original.payload) == Array("original".utf8))
        var encoder = RTXEncoder(ssrc: 0x2222_2222, payloadType: 97, initialSequenceNumber: 42)
        #expect(encoder.wrap(original).bytes == rtx.bytes)
    }

    @Test("aiortc RTCP fields decode to the values the capture script set")
    func rtcpFields() throws {
        guard case let .senderReport(sr) = try RTCPPacket.parseCompound(fixture("aiortc_rtcp_sr")).first else {
            Issue.record("not an SR")
            return
        }
        #expect(sr.ssrc == 0xCAFE_BABE && sr.ntpTimestamp.rawValue == 0xE8E8_E8E8_1234_5678)
        #expect(sr.rtpTimestamp == 160_000 && sr.packetCount == 500 && sr.octetCount == 80000)
        #expect(sr.reports == [ReportBlock(ssrc: 0x1122_3344, fractionLost: 25, cumulativeLost: -3, extendedHighestSequence: 0x0001_FFFF,
                                           jitter: 123, lastSenderReport: 0xAABB_CCDD, delaySinceLastSenderReport: 65536)])

        guard case let .genericNACK(nack) = try RTCPPacket.parseCompound(fixture("aiortc_rtcp_nack")).first else {
            Issue.record("not a NACK")
            return
        }
        #expect(nack.lostSequenceNumbers == [100, 101, 105, 116, 117, 200])

        guard case let .receiverEstimatedMaximumBitrate(remb) = try RTCPPacket.parseCompound(fixture("aiortc_rtcp_remb")).first else {
            Issue.record("not a REMB")
            return
        }
        #expect(remb.ssrcs == [0x1122_3344, 0x5566_7788])
        // aiortc truncates the mantissa: 1_500_000 = 187_500 << 3.
        #expect(remb.bitrate == 1_500_000)

        guard case let .fullIntraRequest(fir) = try RTCPPacket.parseCompound(fixture("aiortc_rtcp_fir")).first else {
            Issue.record("not a FIR")
            return
        }
        #expect(fir.entries == [FullIntraRequest.Entry(ssrc: 2, sequenceNumber: 7)])

        let compound = try RTCPPacket.parseCompound(fixture("aiortc_rtcp_compound_sr_sdes"), allowReducedSize: false)
        guard compound.count == 2, case let .sourceDescription(sdes) = compound[1] else {
            Issue.record("expected SR + SDES")
            return
        }
        #expect(sdes.chunks.first?.cname == "{9c3f4a2b-1d2e3}")
    }

    @Test("our NACK and REMB builders produce aiortc's bytes")
    func buildersMatchAiortc() throws {
        let nack = GenericNACK(senderSSRC: 1, mediaSSRC: 2, lost: [100, 101, 105, 116, 117, 200])
        #expect(RTCPPacket.genericNACK(nack).bytes == (try fixture("aiortc_rtcp_nack")))
        let remb = ReceiverEstimatedMaximumBitrate(senderSSRC: 1, bitrate: 1_500_000, ssrcs: [0x1122_3344, 0x5566_7788])
        #expect(RTCPPacket.receiverEstimatedMaximumBitrate(remb).bytes == (try fixture("aiortc_rtcp_remb")))
    }
}

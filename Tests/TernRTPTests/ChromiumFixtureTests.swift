import Testing
import TernCore
import TernRTP

/// Packets Chromium 156 really sent in calls with Tern, decrypted by Tern (Fixtures/README.chromium.md):
/// they parse, their fields are what the call negotiated, and they write back byte for byte.
@Suite("Chromium-captured packets parse and re-serialise identically")
struct ChromiumFixtureTests {
    static let rtp = ["chromium_rtp_opus", "chromium_rtp_vp8", "chromium_rtp_vp8_marker", "chromium_rtx",
                      "chromium_rtx_padding_probe"]
    static let rtcp = ["chromium_rtcp_rr", "chromium_rtcp_sr_sdes", "chromium_rtcp_sr_sdes_remb"]

    @Test("RTP round-trips byte for byte", arguments: rtp)
    func rtpRoundTrip(_ name: String) throws {
        let bytes = try fixture(name)
        #expect(try RTPPacket(parsing: bytes).bytes == bytes)
    }

    @Test("RTCP round-trips byte for byte with no unknown packet", arguments: rtcp)
    func rtcpRoundTrip(_ name: String) throws {
        let bytes = try fixture(name)
        let packets = try RTCPPacket.parseCompound(bytes)
        #expect(!packets.contains { if case .unknown = $0 { true } else { false } })
        #expect(RTCPPacket.serialize(packets) == bytes)
    }

    @Test("fields match the negotiated call: Opus PT 111, VP8 PT 96 with RTX 97, the SSRCs of the SDP")
    func negotiatedFields() throws {
        let opus = try RTPPacket(parsing: fixture("chromium_rtp_opus"))
        #expect(opus.payloadType == 111 && opus.ssrc == 0x9400_10ff && opus.marker)
        #expect(opus.headerExtension != nil, "mid and transport-wide sequence number extensions")
        let keyframeStart = try RTPPacket(parsing: fixture("chromium_rtp_vp8"))
        #expect(keyframeStart.payloadType == 96 && keyframeStart.ssrc == 0x0f07_5a60 && !keyframeStart.marker)
        let probe = try RTPPacket(parsing: fixture("chromium_rtx_padding_probe"))
        #expect(probe.payloadType == 97 && probe.payload.isEmpty, "a padding-only bandwidth probe")
    }

    @Test("Chromium's RTX packet unwraps (RFC 4588) to the VP8 packet it repeats, byte for byte")
    func rtxUnwrapsToOriginal() throws {
        let rtx = try RTPPacket(parsing: fixture("chromium_rtx"))
        let original = try RTPPacket(parsing: fixture("chromium_rtp_vp8_marker"))
        let unwrapped = try RTXDecoder.unwrap(rtx, originalSSRC: 0x0f07_5a60, originalPayloadType: 96)
        #expect(unwrapped.sequenceNumber == 0x5187 && original.sequenceNumber == 0x5187)
        #expect(unwrapped.timestamp == original.timestamp)
        #expect(Array(unwrapped.payload) == Array(original.payload))
    }
}

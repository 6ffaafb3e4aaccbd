import Testing
import TernSDP

@Suite("Readable summary (tern sdp show)")
struct SDPSummaryTests {
    @Test("a Chromium offer's summary lists sections, codecs, directions, ICE/DTLS and candidates")
    func chromiumOffer() throws {
        let text = try #require(FixtureLoader.named("chromium-audio-video-data-offer.sdp"))
        let description = try SDPParser().parse(text)
        let summary = SDPSummary.render(description)
        #expect(summary.contains("group BUNDLE: 0 1 2"))
        #expect(summary.contains("[0] audio mid=0 UDP/TLS/RTP/SAVPF port 9"))
        #expect(summary.contains("[2] application mid=2 UDP/DTLS/SCTP port 9"))
        #expect(summary.contains("direction: sendrecv"))
        #expect(summary.contains("codec 111 opus/48000/2 [minptime=10;useinbandfec=1] fb: transport-cc"))
        #expect(summary.contains("codec 96 VP8/90000"))
        #expect(summary.contains("dtls setup actpass"))
        #expect(summary.contains("dtls fingerprint sha-256 "))
        #expect(summary.contains("ice ufrag=\(description.media[0].iceUfrag ?? "?") pwd="))
        #expect(summary.contains("sctp-port 5000, max-message-size 262144"))
        let candidates = description.media.flatMap(\.candidates)
        #expect(!candidates.isEmpty)
        #expect(summary.contains("candidate \(candidates[0].type) \(candidates[0].transport) \(candidates[0].address):\(candidates[0].port)"))
    }

    @Test("rejected and bundle-only sections are marked")
    func rejected() throws {
        let gst = try SDPParser().parse(try #require(FixtureLoader.named("gstreamer-audio-video-data-offer.sdp")))
        #expect(SDPSummary.render(gst).contains("[1] video mid=video1 UDP/TLS/RTP/SAVPF port 0 bundle-only"))
        let stopped = try SDPParser().parse(try #require(FixtureLoader.named("chromium-reneg-stop-video-offer.sdp")))
        #expect(SDPSummary.render(stopped).contains("REJECTED (port 0)"))
    }
}

import Testing
import TernCore
import TernSDP

/// Real aiortc, Chromium, Firefox and GStreamer answers to Tern offers (captured by capture/*_interop.py)
/// complete a negotiation with a JSEPSession rebuilt from the same seed.
@Suite("Interop with answers from aiortc, Chromium, Firefox and GStreamer")
struct InteropFixtureTests {
    /// Mirrors SCENARIOS in capture/interop_common.py.
    static let scenarios: [(name: String, seed: UInt64, audio: Bool, video: Bool, data: Bool)] = [
        ("audio", 101, true, false, false),
        ("video", 102, false, true, false),
        ("data", 103, false, false, true),
        ("audio-video-data", 104, true, true, true),
    ]

    static let cases: [(String, String, UInt64, Bool, Bool, Bool)] = ["aiortc", "chromium", "firefox", "gstreamer"].flatMap { peer in
        scenarios.map { (peer, $0.name, $0.seed, $0.audio, $0.video, $0.data) }
    }

    @Test("the remote answer to our offer is applied and negotiates every section", arguments: cases)
    func apply(peer: String, scenario: String, seed: UInt64, audio: Bool, video: Bool, data: Bool) throws {
        var session = JSEPSession(configuration: TestIdentity.configuration, random: SeededRandom(seed: seed))
        if audio { try session.addTransceiver(Transceiver(kind: .audio)) }
        if video { try session.addTransceiver(Transceiver(kind: .video)) }
        if data { try session.addDataChannel() }
        let offer = try session.createOffer()
        // The same seed rebuilds the very offer the remote answered (re-run the capture scripts if the writer changes).
        #expect(offer.sdp == FixtureLoader.interop("tern-\(scenario)-offer.sdp"))
        try session.setLocalDescription(offer)
        let answer = try #require(FixtureLoader.named("\(peer)-answer-to-tern-\(scenario).sdp"))
        try session.setRemoteDescription(JSEPDescription(type: .answer, sdp: answer))
        #expect(session.signalingState == .stable)
        let negotiated = try #require(session.negotiated)
        #expect(negotiated.media.allSatisfy { !$0.isRejected && !$0.codecs.isEmpty })
        #expect(negotiated.media.count == (audio ? 1 : 0) + (video ? 1 : 0))
        #expect((negotiated.dataChannel != nil) == data)
        let transport = try #require(negotiated.transport)
        #expect(transport.dtlsRole == .server)  // both answer a=setup:active
        #expect(!transport.remoteFingerprints.isEmpty)
        if audio { #expect(negotiated.media[0].codecs.first?.name.lowercased() == "opus") }
        if video { #expect(negotiated.media.last?.codecs.first?.name == "VP8") }
    }
}

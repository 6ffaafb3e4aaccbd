import Testing
import TernSDP

@Suite("Codec intersection")
struct CodecNegotiationTests {
    let local: [RTPCodec] = [.opus(), .vp8(), .rtx(payloadType: 97, apt: 96)]

    @Test("matching is by name (case-insensitive), clock rate and channels; payload types are the offerer's",
          arguments: [
        (RTPCodec(payloadType: 109, name: "OPUS", clockRate: 48000, channels: 2), true),
        (RTPCodec(payloadType: 109, name: "opus", clockRate: 48000), true),  // GStreamer writes OPUS/48000
        (RTPCodec(payloadType: 120, name: "vp8", clockRate: 90000), true),
        (RTPCodec(payloadType: 120, name: "VP8", clockRate: 48000), false),
        (RTPCodec(payloadType: 0, name: "PCMU", clockRate: 8000), false),
        (RTPCodec(payloadType: 102, name: "H264", clockRate: 90000), false),
        (RTPCodec(payloadType: 63, name: "red", clockRate: 48000, channels: 2), false),
    ])
    func matching(offered: RTPCodec, kept: Bool) {
        let answer = CodecNegotiation.answerCodecs(offered: [offered], local: local)
        #expect(answer.map(\.payloadType) == (kept ? [offered.payloadType] : []))
        #expect(answer.first?.name == (kept ? offered.name : nil))
    }

    @Test("channel counts must agree for codecs other than Opus")
    func channels() {
        let stereoPCMU = RTPCodec(payloadType: 0, name: "PCMU", clockRate: 8000, channels: 2)
        let monoPCMU = RTPCodec(payloadType: 0, name: "PCMU", clockRate: 8000)
        #expect(!stereoPCMU.matches(monoPCMU))
        #expect(monoPCMU.matches(RTPCodec(payloadType: 5, name: "pcmu", clockRate: 8000, channels: 1)))
    }

    @Test("feedback is intersected, fmtp is ours, RTX follows its primary with the offered PT")
    func rtxAndFeedback() {
        let offered = [
            RTPCodec(payloadType: 100, name: "VP8", clockRate: 90000, feedback: ["nack", "nack pli", "goog-lntf", "ccm fir"]),
            RTPCodec(payloadType: 101, name: "rtx", clockRate: 90000, parameters: "apt=100"),
            RTPCodec(payloadType: 102, name: "H264", clockRate: 90000),
            RTPCodec(payloadType: 103, name: "rtx", clockRate: 90000, parameters: "apt=102"),
        ]
        let answer = CodecNegotiation.answerCodecs(offered: offered, local: local)
        #expect(answer.map(\.payloadType) == [100, 101])
        #expect(answer[0].feedback == ["nack", "nack pli", "ccm fir"])
        #expect(answer[1].associatedPayloadType == 100)
        #expect(CodecNegotiation.answerCodecs(offered: offered, local: [.vp8()]).map(\.payloadType) == [100])
        let opus = CodecNegotiation.answerCodecs(
            offered: [RTPCodec(payloadType: 111, name: "opus", clockRate: 48000, channels: 2, parameters: "stereo=1")],
            local: local)
        #expect(opus[0].parameters == "minptime=10;useinbandfec=1")
    }

    @Test("order follows the offer unless local preferences are set")
    func order() {
        let offered = [RTPCodec(payloadType: 8, name: "PCMA", clockRate: 8000), RTPCodec(payloadType: 111, name: "opus", clockRate: 48000, channels: 2)]
        let mine = [RTPCodec.opus(), RTPCodec(payloadType: 8, name: "PCMA", clockRate: 8000)]
        #expect(CodecNegotiation.answerCodecs(offered: offered, local: mine).map(\.payloadType) == [8, 111])
        #expect(CodecNegotiation.answerCodecs(offered: offered, local: mine, preferLocalOrder: true).map(\.payloadType) == [111, 8])
    }

    @Test("a section with no common codec is rejected with port 0 while the others are accepted")
    func noCommonCodec() throws {
        var offerer = TestIdentity.session(seed: 3)
        var answerer = TestIdentity.session(seed: 4)
        try offerer.addTransceiver(Transceiver(kind: .audio, codecPreferences: [RTPCodec(payloadType: 0, name: "PCMU", clockRate: 8000)]))
        try offerer.addTransceiver(Transceiver(kind: .video))
        let (_, answer) = try Exchange.run(offerer: &offerer, answerer: &answerer, beforeAnswer: Exchange.sendrecvAll)
        #expect(answer.media[0].isRejected)
        #expect(answer.media[0].mid == "0")
        #expect(!answer.media[1].isRejected)
        #expect(answer.bundleGroups.first?.mids == ["1"])
        #expect(offerer.transceivers[0].isStopped)
        let negotiated = try #require(offerer.negotiated)
        #expect(negotiated.media[0].isRejected)
        #expect(negotiated.media[1].codecs.map(\.name) == ["VP8", "rtx"])
        #expect(negotiated.bundleMids == ["1"])
    }
}

import Testing
import TernSDP

@Suite("Answering offers that need tolerance")
struct JSEPInteropRulesTests {
    func fixture(_ name: String) throws -> String {
        try #require(FixtureLoader.named(name), "fixture \(name)")
    }

    func answer(_ offer: String) throws -> (JSEPSession, SessionDescription) {
        var s = TestIdentity.session(seed: 77)
        try s.setRemoteDescription(JSEPDescription(type: .offer, sdp: offer))
        try Exchange.sendrecvAll(&s)
        let answer = try s.createAnswer()
        try s.setLocalDescription(answer)
        return (s, try SDPParser().parse(answer.sdp))
    }

    @Test("a section with an unknown protocol or media is rejected alone")
    func unknownProtocol() throws {
        var offer = try SDPParser().parse(try fixture("chromium-audio-video-data-offer.sdp"))
        var plain = MediaDescription(mediaLine: MediaLine(media: "audio", port: 9, proto: "RTP/AVP", formats: ["0"]))
        plain.append(Attribute(name: "mid", value: "plain"))
        var text = MediaDescription(mediaLine: MediaLine(media: "text", port: 9, proto: "UDP/TLS/RTP/SAVPF", formats: ["98"]))
        text.append(Attribute(name: "mid", value: "text"))
        text.append(RTPMap(payloadType: 98, encodingName: "t140", clockRate: 1000))
        offer.media += [plain, text]
        offer.lines = offer.lines.map { line in
            guard case .attribute(let a) = line, let g = a.parsed(as: Group.self), g.semantics == "BUNDLE" else { return line }
            return .attribute(Attribute(Group(semantics: "BUNDLE", mids: g.mids + ["plain", "text"])))
        }
        let (session, answer) = try answer(offer.text)
        #expect(answer.media.map(\.isRejected) == [false, false, false, true, true])
        #expect(answer.media.map(\.mid) == ["0", "1", "2", "plain", "text"])
        #expect(answer.bundleGroups.first?.mids == ["0", "1", "2"])
        #expect(session.negotiated?.dataChannel != nil)
    }

    @Test("a port-0 section without ICE attributes (edited from a captured aiortc offer) is accepted")
    func firefoxStoppedSection() throws {
        var offer = try SDPParser().parse(try fixture("aiortc-audio-video-offer.sdp"))
        offer.media[1].mediaLine.port = 0
        offer.media[1].lines.removeAll { line in
            guard let a = line.attribute else { return false }
            return ["ice-ufrag", "ice-pwd", "fingerprint", "setup", "candidate", "end-of-candidates"].contains(a.name)
        }
        offer.lines = offer.lines.map { line in
            guard case .attribute(let a) = line, a.name == "group" else { return line }
            return .attribute(Attribute(Group(semantics: "BUNDLE", mids: ["0"])))
        }
        let (_, answer) = try answer(offer.text)
        #expect(!answer.media[0].isRejected)
        #expect(answer.media[1].isRejected && answer.media[1].mid == "1")
    }

    @Test("transport attributes resolve through the BUNDLE-tagged section")
    func transportAttributes() throws {
        let gst = try SDPParser().parse(try fixture("gstreamer-audio-video-data-offer.sdp"))
        #expect(gst.transportMediaIndex == 0)
        let tagged = try #require(gst.transportAttributes(forMediaAt: 0))
        #expect(tagged.ufrag == gst.media[0].iceUfrag && tagged.setup == .actpass && tagged.iceOptions == ["trickle"])
        var stripped = gst
        stripped.media[1].removeAttributes(named: "ice-ufrag")
        #expect(stripped.transportAttributes(forMediaAt: 1)?.ufrag == gst.media[0].iceUfrag)
        #expect(gst.transportAttributes(forMediaAt: 9) == nil)
    }

    @Test("bundle-only sections (GStreamer max-bundle) are accepted")
    func bundleOnly() throws {
        let (session, answer) = try answer(try fixture("gstreamer-audio-video-data-offer.sdp"))
        #expect(answer.media.map(\.isRejected) == [false, false, false])
        #expect(answer.bundleGroups.first?.mids == ["audio0", "video1", "application2"])
        #expect(session.negotiated?.media.map(\.mid) == ["audio0", "video1"])
    }

    @Test("without a BUNDLE group only the first usable section is accepted (max-bundle)")
    func noBundle() throws {
        var offer = try SDPParser().parse(try fixture("chromium-audio-video-data-offer.sdp"))
        offer.removeAttributes(named: "group")
        let (_, answer) = try answer(offer.text)
        #expect(answer.media.map(\.isRejected) == [false, true, true])
        #expect(answer.bundleGroups.isEmpty)
    }

    @Test("a section without rtcp-mux is rejected (rtcp-mux policy require)")
    func noRtcpMux() throws {
        let text = try fixture("aiortc-audio-offer.sdp").replacingOccurrences(of: "a=rtcp-mux\r\n", with: "")
        let (_, answer) = try answer(text)
        #expect(answer.media[0].isRejected)
    }

    @Test("the answer to Chromium's offer keeps Chromium's payload types and BUNDLE")
    func chromium() throws {
        let offerText = try fixture("chromium-audio-video-data-offer.sdp")
        let offer = try SDPParser().parse(offerText)
        let (session, answer) = try answer(offerText)
        #expect(answer.media[0].mediaLine.payloadTypes == [111])
        let vp8 = try #require(RTPCodec.codecs(in: offer.media[1]).first { $0.name == "VP8" })
        #expect(answer.media[1].mediaLine.payloadTypes.first == vp8.payloadType)
        #expect(answer.media.allSatisfy { $0.setup == .active })
        #expect(session.negotiated?.transport?.dtlsRole == .client)
        #expect(session.negotiated?.transport?.remoteCandidates.isEmpty == false)
    }
}

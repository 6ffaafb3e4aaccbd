import Testing
import TernSDP

@Suite("SDP parsing and writing")
struct ParserTests {
    static let minimal = "v=0\r\no=- 123 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n"

    func media(_ lines: String...) throws -> MediaDescription {
        let text = Self.minimal + "m=audio 9 UDP/TLS/RTP/SAVPF 111\r\n" + lines.map { $0 + "\r\n" }.joined()
        let parsed = try SDPParser().parse(text)
        #expect(parsed.text == text)
        return try #require(parsed.media.first)
    }

    @Test("every RFC 8866 line type is parsed, kept in order and written back")
    func allLineTypes() throws {
        let text = """
        v=0\r
        o=jdoe 3724394400 3724394405 IN IP4 198.51.100.1\r
        s=Call to John Smith\r
        i=SDP Offer #1\r
        u=http://www.jdoe.example.com/home.html\r
        e=Jane Doe <jane@jdoe.example.com>\r
        p=+1 617 555-6011\r
        c=IN IP4 198.51.100.1\r
        b=AS:128\r
        t=0 0\r
        r=604800 3600 0 90000\r
        z=2882844526 -1h 2898848070 0\r
        k=clear:secret\r
        a=recvonly\r
        x=an unknown line type\r
        m=audio 49170 RTP/AVP 0\r
        i=media title\r
        c=IN IP6 2001:db8::1\r
        b=TIAS:64000\r
        k=prompt\r
        a=rtpmap:0 PCMU/8000\r
        m=video 51372/2 RTP/AVP 99\r
        a=rtpmap:99 h263-1998/90000\r

        """
        let parsed = try SDPParser().parse(text)
        #expect(parsed.text == text)
        #expect(parsed.origin.username == "jdoe")
        #expect(parsed.origin.sessionVersion == "3724394405")
        #expect(parsed.sessionName == "Call to John Smith")
        #expect(parsed.lines.count == 12)
        #expect(parsed.lines[0] == .information("SDP Offer #1"))
        #expect(parsed.lines[5] == .bandwidth(Bandwidth(type: "AS", value: 128)))
        #expect(parsed.lines[11] == .unknown(type: "x", value: "an unknown line type"))
        #expect(parsed.direction == .recvonly)
        #expect(parsed.media[0].connection == ConnectionData(addressType: "IP6", address: "2001:db8::1"))
        #expect(parsed.media[1].mediaLine.portCount == 2)
        #expect(parsed.media[1].rtpMaps == [RTPMap(payloadType: 99, encodingName: "h263-1998", clockRate: 90000)])
    }

    @Test("LF-only input is accepted and written with CRLF")
    func lfInput() throws {
        let lf = Self.minimal.replacingOccurrences(of: "\r\n", with: "\n") + "m=audio 9 UDP/TLS/RTP/SAVPF 111\na=mid:0\n"
        let parsed = try SDPParser().parse(lf)
        #expect(parsed.media[0].mid == "0")
        #expect(parsed.text == lf.replacingOccurrences(of: "\n", with: "\r\n"))
    }

    @Test("unknown attributes are preserved verbatim and in order")
    func unknownAttributes() throws {
        let m = try media("a=x-google-flag:conference", "a=mid:0", "a=weird", "a=msid-semantic: WMS  *", "a=rtcp-mux")
        #expect(m.attributes.map(\.name) == ["x-google-flag", "mid", "weird", "msid-semantic", "rtcp-mux"])
        #expect(m.attributes[3].value == " WMS  *")
    }

    @Test("rtpmap, fmtp and rtcp-fb are typed")
    func codecs() throws {
        let m = try media("a=rtpmap:111 opus/48000/2", "a=fmtp:111 minptime=10; useinbandfec=1",
                          "a=rtcp-fb:111 transport-cc", "a=rtcp-fb:* nack", "a=rtcp-fb:96 nack pli", "a=rtcp-fb:96 ccm fir")
        #expect(m.rtpMaps == [RTPMap(payloadType: 111, encodingName: "opus", clockRate: 48000, channels: 2)])
        #expect(m.formatParameters.first?.parameters == ["minptime": "10", "useinbandfec": "1"])
        #expect(m.rtcpFeedback.map(\.feedback) == ["transport-cc", "nack", "nack pli", "ccm fir"])
        #expect(m.rtcpFeedback[1].payloadType == nil)
        let codecs = RTPCodec.codecs(in: m)
        #expect(codecs.count == 1)
        #expect(codecs[0].feedback == ["nack", "transport-cc"])
    }

    @Test("extmap with direction and attributes; extmap-allow-mixed flag")
    func extmap() throws {
        let m = try media("a=extmap-allow-mixed", "a=extmap:1 urn:ietf:params:rtp-hdrext:sdes:mid",
                          "a=extmap:2/sendonly urn:ietf:params:rtp-hdrext:encrypt urn:x extra")
        #expect(m.extmapAllowMixed)
        #expect(m.extensionMaps[0] == ExtensionMap(id: 1, uri: "urn:ietf:params:rtp-hdrext:sdes:mid"))
        #expect(m.extensionMaps[1].direction == .sendonly)
        #expect(m.extensionMaps[1].extensionAttributes == "urn:x extra")
        #expect(Attribute(m.extensionMaps[1]).line == "a=extmap:2/sendonly urn:ietf:params:rtp-hdrext:encrypt urn:x extra")
    }

    @Test("mid, BUNDLE group, msid, ssrc, ssrc-group, rtcp")
    func identity() throws {
        let text = Self.minimal + "a=group:BUNDLE 0 1\r\na=group:LS 0\r\nm=video 9 UDP/TLS/RTP/SAVPF 96 97\r\n"
            + "a=mid:0\r\na=msid:stream track\r\na=ssrc-group:FID 1 2\r\na=ssrc:1 cname:abc\r\na=ssrc:2 msid:stream track\r\n"
            + "a=ssrc:3\r\na=rtcp:9 IN IP4 0.0.0.0\r\n"
        let d = try SDPParser().parse(text)
        #expect(d.text == text)
        #expect(d.bundleGroups == [Group(semantics: "BUNDLE", mids: ["0", "1"])])
        #expect(d.groups.count == 2)
        let m = d.media[0]
        #expect(m.mid == "0")
        #expect(m.msids == [MediaStreamId(streamId: "stream", trackId: "track")])
        #expect(m.ssrcGroups == [SSRCGroup(semantics: "FID", ssrcs: [1, 2])])
        #expect(m.ssrcAttributes[0] == SSRCAttribute(ssrc: 1, name: "cname", value: "abc"))
        #expect(m.ssrcAttributes[1].value == "stream track")
        #expect(m.ssrcAttributes[2] == SSRCAttribute(ssrc: 3, name: ""))
        #expect(m.rtcp == RTCPAttribute(port: 9, connection: ConnectionData()))
        #expect(d.media(mid: "0") == m)
    }

    @Test("ICE, DTLS and SCTP attributes")
    func transport() throws {
        let m = try media("a=ice-ufrag:abcd", "a=ice-pwd:0123456789012345678901", "a=ice-options:trickle renomination",
                          "a=ice-lite", "a=end-of-candidates", "a=setup:actpass", "a=sctp-port:5000",
                          "a=max-message-size:262144", "a=rtcp-mux", "a=rtcp-mux-only", "a=rtcp-rsize", "a=sendonly")
        #expect(m.iceUfrag == "abcd")
        #expect(m.icePwd == "0123456789012345678901")
        #expect(m.iceOptions == ["trickle", "renomination"])
        #expect(m.hasFlag("ice-lite"))
        #expect(m.endOfCandidates)
        #expect(m.setup == .actpass)
        #expect(m.sctpPort == 5000)
        #expect(m.maxMessageSize == 262_144)
        #expect(m.rtcpMux && m.rtcpMuxOnly && m.rtcpReducedSize)
        #expect(m.direction == .sendonly)
    }

    @Test("fingerprints with every hash name", arguments: [
        ("sha-1", 20), ("sha-224", 28), ("sha-256", 32), ("sha-384", 48), ("sha-512", 64), ("md5", 16), ("md2", 16),
    ])
    func fingerprints(algorithm: String, length: Int) throws {
        let bytes = (0..<length).map { UInt8($0 * 13 & 0xff) }
        let value = Fingerprint(algorithm: algorithm.uppercased(), bytes: bytes).attributeValue
        let m = try media("a=fingerprint:\(value)")
        #expect(m.fingerprints == [Fingerprint(algorithm: algorithm, bytes: bytes)])
        let lower = try media("a=fingerprint:\(algorithm) \(value.split(separator: " ")[1].lowercased())")
        #expect(lower.fingerprints.first?.bytes == bytes)
    }

    @Test("rid and simulcast are parsed and preserved")
    func simulcast() throws {
        let m = try media("a=rid:h send pt=96;max-width=1280", "a=rid:l send", "a=simulcast:send h;~l,m recv r")
        #expect(m.rids == [RID(id: "h", direction: "send", restrictions: "pt=96;max-width=1280"), RID(id: "l", direction: "send")])
        let sim = try #require(m.simulcast)
        #expect(sim.send == [[.init(rid: "h")], [.init(rid: "l", paused: true), .init(rid: "m")]])
        #expect(sim.receive == [[.init(rid: "r")]])
        #expect(sim.attributeValue == "send h;~l,m recv r")
        #expect(try Simulcast(attributeValue: "send rid=a;b").send.count == 2)
    }

    @Test("typed values render canonically and re-parse to the same value")
    func canonicalRendering() throws {
        let attributes: [Attribute] = [
            Attribute(RTPMap(payloadType: 96, encodingName: "VP8", clockRate: 90000)),
            Attribute(FormatParameters(payloadType: 97, parameters: [("apt", "96")])),
            Attribute(RTCPFeedback(payloadType: nil, feedback: "nack pli")),
            Attribute(Group(semantics: "BUNDLE", mids: [])),
            Attribute(SetupRole.passive),
        ]
        #expect(attributes.map(\.line) == ["a=rtpmap:96 VP8/90000", "a=fmtp:97 apt=96", "a=rtcp-fb:* nack pli",
                                           "a=group:BUNDLE", "a=setup:passive"])
        #expect(attributes[1].parsed(as: FormatParameters.self)?.parameters["apt"] == "96")
        #expect(attributes[0].parsed(as: FormatParameters.self) == nil)
    }

    @Test("parsing from bytes checks UTF-8")
    func bytes() throws {
        #expect(throws: SDPParseError.notUTF8) { try SDPParser().parse(bytes: [0x76, 0x3d, 0xff, 0xfe]) }
        let d = try SDPParser().parse(bytes: Array(Self.minimal.utf8))
        #expect(d.text == Self.minimal)
    }
}

import Testing
import TernSDP

/// The parser checks known attributes with a scan that builds nothing, and the typed accessors build the
/// value later from the stored text: these tests prove the two agree, and that the compact attribute
/// storage behaves like a name and a value.
@Suite("Attribute storage and validation")
struct AttributeStorageTests {
    @Test("every known attribute the parser accepted in the corpus also builds its typed value",
          arguments: FixtureLoader.all())
    func validatedAttributesBuild(fixture: FixtureLoader.Fixture) throws {
        let description = try SDPParser().parse(fixture.text)
        let containers: [[Attribute]] = [description.attributes] + description.media.map(\.attributes)
        var checked = 0
        for attributes in containers {
            for attribute in attributes {
                let built: Bool? = switch attribute.name {
                case RTPMap.attributeName: attribute.parsed(as: RTPMap.self) != nil
                case FormatParameters.attributeName: attribute.parsed(as: FormatParameters.self) != nil
                case RTCPFeedback.attributeName: attribute.parsed(as: RTCPFeedback.self) != nil
                case ExtensionMap.attributeName: attribute.parsed(as: ExtensionMap.self) != nil
                case Group.attributeName: attribute.parsed(as: Group.self) != nil
                case MediaStreamId.attributeName: attribute.parsed(as: MediaStreamId.self) != nil
                case SSRCAttribute.attributeName: attribute.parsed(as: SSRCAttribute.self) != nil
                case SSRCGroup.attributeName: attribute.parsed(as: SSRCGroup.self) != nil
                case RTCPAttribute.attributeName: attribute.parsed(as: RTCPAttribute.self) != nil
                case ICECandidate.attributeName: attribute.parsed(as: ICECandidate.self) != nil
                case Fingerprint.attributeName: attribute.parsed(as: Fingerprint.self) != nil
                case SetupRole.attributeName: attribute.parsed(as: SetupRole.self) != nil
                case RID.attributeName: attribute.parsed(as: RID.self) != nil
                case Simulcast.attributeName: attribute.parsed(as: Simulcast.self) != nil
                default: nil
                }
                guard let built else { continue }
                #expect(built, "\(fixture.name): a=\(attribute.name):\(attribute.value ?? "") validated but does not build")
                checked += 1
            }
        }
        #expect(checked > 0)
    }

    @Test("a malformed value is refused the same way by the parser's check and by the typed parser",
          arguments: [
              ("candidate", "1 1 udp 2122260223 192.0.2.1 54400 typ host rport"),
              ("candidate", "1 1 udp 2122260223 192.0.2.1 54400 typ host raddr 0.0.0.0 rport 70000"),
              ("fingerprint", "sha-256 AB:CD:E"),
              ("fingerprint", "sha-256 AB:CD:EF:"),
              ("fingerprint", "sha-256 ABCD"),
              ("extmap", "3/sideways urn:x"),
              ("fmtp", "opus minptime=10"),
              ("ssrc", "x cname:a"),
              ("msid", "a b c"),
              ("ssrc-group", "FID 1 two"),
          ])
    func malformedValuesAgree(name: String, value: String) {
        let text = "v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=\(name):\(value)\r\n"
        #expect(throws: SDPParseError.self) { try SDPParser().parse(text) }
        #expect(Attribute(name: name, value: value).parsed(as: ICECandidate.self) == nil)
        #expect(Attribute(name: name, value: value).parsed(as: Fingerprint.self) == nil)
        #expect(Attribute(name: name, value: value).parsed(as: ExtensionMap.self) == nil)
        #expect(Attribute(name: name, value: value).parsed(as: FormatParameters.self) == nil)
        #expect(Attribute(name: name, value: value).parsed(as: SSRCAttribute.self) == nil)
        #expect(Attribute(name: name, value: value).parsed(as: MediaStreamId.self) == nil)
        #expect(Attribute(name: name, value: value).parsed(as: SSRCGroup.self) == nil)
    }

    @Test("name and value read back as given, including a colon inside the value and a flag")
    func nameAndValue() {
        let rtcp = Attribute(name: "rtcp", value: "9 IN IP4 0.0.0.0")
        #expect(rtcp.name == "rtcp")
        #expect(rtcp.value == "9 IN IP4 0.0.0.0")
        #expect(rtcp.line == "a=rtcp:9 IN IP4 0.0.0.0")
        let flag = Attribute(name: "rtcp-mux")
        #expect(flag.value == nil)
        #expect(flag.line == "a=rtcp-mux")
        let empty = Attribute(name: "x", value: "")
        #expect(empty.value == "")
        #expect(empty.line == "a=x:")
        #expect(empty != Attribute(name: "x"))
        let colon = Attribute(name: "fingerprint", value: "sha-1 AB:CD")
        #expect(colon.value == "sha-1 AB:CD")
        #expect(colon.isNamed("fingerprint"))
        #expect(!colon.isNamed("finger"))
    }

    @Test("setting the name or the value rewrites the line")
    func mutation() {
        var attribute = Attribute(name: "mid", value: "0")
        attribute.value = "audio"
        #expect(attribute.line == "a=mid:audio")
        attribute.name = "label"
        #expect(attribute.line == "a=label:audio")
        attribute.value = nil
        #expect(attribute.line == "a=label")
    }

    @Test("a parsed attribute equals the same attribute built by hand")
    func parsedEqualsBuilt() throws {
        let text = "v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=rtpmap:111 opus/48000/2\r\na=rtcp-mux\r\n"
        let media = try #require(try SDPParser().parse(text).media.first)
        #expect(media.attributes == [Attribute(name: "rtpmap", value: "111 opus/48000/2"), Attribute(name: "rtcp-mux")])
        #expect(Set(media.attributes).count == 2)
    }
}

import Testing
import TernCore
import TernSDP

@Suite("Captured fixtures")
struct FixtureRoundTripTests {
    @Test("the corpus holds at least 20 captured descriptions")
    func corpusSize() {
        #expect(FixtureLoader.all().count >= 20)
    }

    @Test("every fixture parses and writes back byte for byte", arguments: FixtureLoader.all())
    func roundTrip(fixture: FixtureLoader.Fixture) throws {
        let parsed = try SDPParser().parse(fixture.text)
        #expect(parsed.text == fixture.text)
        #expect(try SDPParser().parse(parsed.text) == parsed)
        #expect(!parsed.media.isEmpty)
    }

    @Test("every fixture parses from LF-only text to the same model", arguments: FixtureLoader.all())
    func lfOnly(fixture: FixtureLoader.Fixture) throws {
        let lf = fixture.text.replacingOccurrences(of: "\r\n", with: "\n")
        #expect(try SDPParser().parse(lf) == SDPParser().parse(fixture.text))
    }

    @Test("every captured offer gets a structurally valid answer from JSEPSession",
          arguments: FixtureLoader.all().filter(\.isOffer))
    func answerEveryOffer(fixture: FixtureLoader.Fixture) throws {
        var session = JSEPSession(configuration: TestIdentity.configuration, random: SeededRandom(seed: 7))
        try session.setRemoteDescription(JSEPDescription(type: .offer, sdp: fixture.text))
        let answer = try session.createAnswer()
        let offer = try SDPParser().parse(fixture.text)
        let parsed = try SDPParser().parse(answer.sdp)
        try AnswerChecks.assertValid(answer: parsed, for: offer)
        #expect(parsed.media.contains { !$0.isRejected }, "every captured offer has something we support")
        try session.setLocalDescription(answer)
        #expect(session.signalingState == .stable)
        let negotiated = try #require(session.negotiated)
        #expect(negotiated.transport != nil)
        #expect(negotiated.transport?.remoteFingerprints.isEmpty == false)
    }
}

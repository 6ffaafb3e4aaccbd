import Testing
import TernCore
import TernSDP

@Suite("Arbitrary input never crashes the parser or writer")
struct MutationTests {
    @Test("thousands of seeded mutations of the fixtures parse or fail with a typed error")
    func mutatedFixtures() throws {  // errors other than SDPParseError fail the test
        let fixtures = FixtureLoader.all().map { Array($0.text.utf8) }
        try #require(!fixtures.isEmpty)
        var random = SeededRandom(seed: 0x5D9)
        let interesting: [UInt8] = Array(":= /\r\n0123456789amvtcb-*~".utf8) + [0x00, 0xff, 0xc3]
        var parsed = 0
        var failed = 0
        for round in 0..<3000 {
            var bytes = fixtures[round % fixtures.count]
            for _ in 0..<(1 + Int(random.next() % 8)) {
                guard !bytes.isEmpty else { break }
                let at = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 4 {
                case 0: bytes[at] = interesting[Int(random.next() % UInt64(interesting.count))]
                case 1: bytes.remove(at: at)
                case 2: bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: at)
                default:
                    let end = min(bytes.count, at + Int(random.next() % 64))
                    bytes.replaceSubrange(at..<end, with: bytes[at..<end].reversed())
                }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            do {
                let description = try SDPParser().parse(text)
                let written = description.text
                #expect(try SDPParser().parse(written) == description)
                _ = SDPSummary.render(description)
                var answerer = TestIdentity.session(seed: UInt64(round))
                if (try? answerer.setRemoteDescription(JSEPDescription(type: .offer, sdp: written))) != nil,
                   let answer = try? answerer.createAnswer() {
                    try answerer.setLocalDescription(answer)
                    _ = answerer.negotiated
                }
                var offerer = TestIdentity.session(seed: UInt64(round))
                try offerer.addTransceiver(Transceiver(kind: .audio))
                try offerer.addTransceiver(Transceiver(kind: .video))
                try offerer.addDataChannel()
                try offerer.setLocalDescription(try offerer.createOffer())
                if (try? offerer.setRemoteDescription(JSEPDescription(type: .answer, sdp: written))) != nil {
                    _ = offerer.negotiated
                }
                parsed += 1
            } catch let error as SDPParseError {
                #expect(!error.description.isEmpty)
                failed += 1
            }
        }
        #expect(parsed + failed == 3000)
        #expect(parsed > 300 && failed > 300, "both paths exercised: \(parsed) parsed, \(failed) refused")
    }
}

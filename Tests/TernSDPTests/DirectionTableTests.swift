import Testing
import TernSDP

@Suite("Direction intersection (RFC 3264 §6.1)")
struct DirectionTableTests {
    @Test("answer direction for every offered direction and local wish", arguments: [
        (RTPDirection.sendrecv, RTPDirection.sendrecv, RTPDirection.sendrecv),
        (.sendrecv, .sendonly, .sendonly),
        (.sendrecv, .recvonly, .recvonly),
        (.sendrecv, .inactive, .inactive),
        (.sendonly, .sendrecv, .recvonly),
        (.sendonly, .sendonly, .inactive),
        (.sendonly, .recvonly, .recvonly),
        (.sendonly, .inactive, .inactive),
        (.recvonly, .sendrecv, .sendonly),
        (.recvonly, .sendonly, .sendonly),
        (.recvonly, .recvonly, .inactive),
        (.recvonly, .inactive, .inactive),
        (.inactive, .sendrecv, .inactive),
        (.inactive, .sendonly, .inactive),
        (.inactive, .recvonly, .inactive),
        (.inactive, .inactive, .inactive),
    ])
    func table(offered: RTPDirection, wish: RTPDirection, expected: RTPDirection) throws {
        #expect(RTPDirection.answer(offered: offered, local: wish) == expected)
        // And end to end: a negotiator answering an offer with that direction.
        var offerer = TestIdentity.session(seed: 1)
        var answerer = TestIdentity.session(seed: 2)
        try offerer.addTransceiver(Transceiver(kind: .audio, direction: offered))
        let (_, answer) = try Exchange.run(offerer: &offerer, answerer: &answerer) { session throws in
            try session.setDirection(wish, forTransceiverAt: 0)
        }
        #expect((answer.media[0].direction ?? .sendrecv) == expected)
        #expect(answerer.transceivers[0].currentDirection == expected)
        #expect(offerer.transceivers[0].currentDirection == expected.reversed)
        #expect(offerer.negotiated?.media[0].direction == expected.reversed)
    }

    @Test("reversed swaps send and receive halves")
    func reversed() {
        #expect(RTPDirection.sendonly.reversed == .recvonly)
        #expect(RTPDirection.recvonly.reversed == .sendonly)
        #expect(RTPDirection.sendrecv.reversed == .sendrecv)
        #expect(RTPDirection.inactive.reversed == .inactive)
        #expect(RTPDirection.allCases.map(\.rawValue) == ["sendrecv", "sendonly", "recvonly", "inactive"])
    }
}

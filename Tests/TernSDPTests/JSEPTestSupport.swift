import Testing
import TernCore
import TernSDP

/// Drives two negotiators through one offer/answer exchange.
enum Exchange {
    @discardableResult
    static func run(offerer: inout JSEPSession, answerer: inout JSEPSession, iceRestart: Bool = false,
                    beforeAnswer: (inout JSEPSession) throws -> Void = { _ in }) throws -> (offer: SessionDescription, answer: SessionDescription) {
        let offer = try offerer.createOffer(iceRestart: iceRestart)
        try offerer.setLocalDescription(offer)
        try answerer.setRemoteDescription(offer)
        try beforeAnswer(&answerer)
        let answer = try answerer.createAnswer()
        try answerer.setLocalDescription(answer)
        try offerer.setRemoteDescription(answer)
        #expect(offerer.signalingState == .stable)
        #expect(answerer.signalingState == .stable)
        return (try SDPParser().parse(offer.sdp), try SDPParser().parse(answer.sdp))
    }

    /// Makes every remote-created transceiver send and receive before answering.
    static func sendrecvAll(_ session: inout JSEPSession) throws {
        for index in session.transceivers.indices where !session.transceivers[index].isStopped {
            try session.setDirection(.sendrecv, forTransceiverAt: index)
        }
    }
}

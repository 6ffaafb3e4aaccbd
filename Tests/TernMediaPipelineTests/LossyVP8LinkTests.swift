import Testing
import TernCore

/// Issue #6 evidence: 10 s of real VP8 (640x480, 30 fps, 1500 kb/s, libvpx) over an in-memory link with
/// 5 % random loss each way, manual clock. With NACK + RTX at least 98 % of the frames sent are
/// decoded and read back with the right counter; without NACK (PLI + keyframe only) visibly fewer.
@Suite("Scenario: 10 s of VP8 over a 5% loss link, NACK + RTX vs PLI only")
struct LossyVP8LinkTests {
    @Test("with NACK ≥ 98% of VP8 frames decode; without NACK clearly fewer", arguments: [2026, 7, 424242] as [UInt64])
    func nackVersusNone(seed: UInt64) throws {
        let with = try LossyVP8Call.run(nack: true, seed: seed)
        let without = try LossyVP8Call.run(nack: false, seed: seed)
        print("seed \(seed), 5% loss, \(with.framesSent) VP8 frames sent: "
            + "with NACK \(with.framesDecoded) decoded (\(percent(with.percentDecoded))), "
            + "\(with.nacksSent) NACKs, \(with.retransmissions) RTX, \(with.datagramsDropped) of \(with.datagramsSent) "
            + "datagrams dropped, \(with.pliSent) PLIs, \(with.keyframesSent) keyframes; "
            + "without NACK \(without.framesDecoded) decoded (\(percent(without.percentDecoded))), "
            + "\(without.framesDroppedByAssembler) frames lost, \(without.framesSkippedForKeyframe) skipped awaiting a keyframe, "
            + "\(without.pliSent) PLIs, \(without.keyframesSent) keyframes")

        #expect(with.framesSent == 300 && without.framesSent == 300)
        #expect(with.percentDecoded >= 98)
        #expect(without.framesDecoded < with.framesDecoded)
        #expect(without.percentDecoded < with.percentDecoded - 10, "without NACK should be visibly worse")
        // Every picture shown carries the counter of the frame sent with its timestamp, in order:
        // holding delta frames back until a keyframe keeps corrupted pictures out.
        #expect(with.framesWrong == 0 && without.framesWrong == 0)
        #expect(with.decodeFailures == 0 && without.decodeFailures == 0)
        // Repair did the work: retransmissions happened, and the link really dropped about 5 %.
        #expect(with.retransmissions > 0)
        #expect(with.datagramsDropped > 0 && without.datagramsDropped > 0)
        // Without NACK, losses are repaired only by keyframes the receiver asked for.
        #expect(without.pliSent > 0 && without.pliReceived > 0)
        #expect(without.keyframesSent > 1)
    }

    @Test("on a loss-free link every VP8 frame decodes in order, with or without NACK")
    func lossFree() throws {
        for nack in [true, false] {
            let result = try LossyVP8Call.run(nack: nack, seed: 1, lossRate: 0)
            #expect(result.framesDecoded == 300)
            #expect(result.framesWrong == 0 && result.pliSent == 0 && result.keyframesSent == 1)
            #expect(result.nacksSent == 0 && result.retransmissions == 0)
        }
    }

    private func percent(_ value: Double) -> String { "\((value * 100).rounded() / 100)%" }
}

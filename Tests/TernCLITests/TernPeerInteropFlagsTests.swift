import Foundation
import Testing

/// The `tern peer` flags the interop matrix (Interop/aiortc/run-matrix) drives, Tern against
/// Tern: an answerer's own echo run with mixed sizes and kinds and a max-message-size message,
/// unordered and maxRetransmits: 0 channels, reject, cancel, and a sendMessage envelope.
@Suite("tern peer interop flags (subprocesses)", .serialized)
struct TernPeerInteropFlagsTests {
    let rig = TernPeerCommandTests()

    @Test("an answerer runs its own echo run: sizes in turn, text and binary alternating, the last at the caller's max-message-size")
    func answererEchoRunWithMixedMessages() async throws {
        let run = try await rig.call(
            bob: ["--data", "--echo-count", "40", "--echo-sizes", "1,1000,16384", "--echo-alternate", "--echo-max-message",
                  "--duration", "1"],
            alice: ["--data", "--echo", "--duration", "30"])
        let bob = try #require(run.bob.summary, "no summary from bob: \(run.bob.lines.suffix(5))")
        #expect(run.bobStatus == 0, "bob: \(bob["result"] ?? "?")")
        #expect(run.aliceStatus == 0)
        #expect(rig.value(bob, "dataChannel.echo.sent") as? Int == 40)
        #expect(rig.value(bob, "dataChannel.echo.received") as? Int == 40)
        #expect(rig.value(bob, "dataChannel.echo.corrupted") as? Int == 0)
        #expect(rig.value(bob, "dataChannel.echo.inOrder") as? Bool == true)
        #expect(rig.value(bob, "endReason") as? String == "localHangUp")
        // The run announced the max-message-size message it sent (256 KiB, Tern's default).
        #expect(run.bob.lines.contains { $0.contains("#39 of 262144 bytes") })
    }

    @Test("unordered and maxRetransmits: 0 channels: the run passes without order, no echo doubled or altered")
    func partiallyReliableUnorderedRun() async throws {
        let run = try await rig.call(bob: ["--data", "--echo"],
                                     alice: ["--data", "--echo-count", "100", "--echo-sizes", "16,1000", "--unordered",
                                             "--max-retransmits", "0"])
        let alice = try #require(run.alice.summary, "no summary from alice: \(run.alice.lines.suffix(5))")
        #expect(run.aliceStatus == 0, "alice: \(alice["result"] ?? "?")")
        #expect(rig.value(alice, "dataChannel.echo.sent") as? Int == 100)
        #expect((rig.value(alice, "dataChannel.echo.received") as? Int ?? 0) > 0)
        #expect(rig.value(alice, "dataChannel.echo.duplicates") as? Int == 0)
        #expect(rig.value(alice, "dataChannel.echo.corrupted") as? Int == 0)
        #expect(run.alice.lines.contains { $0.contains("unordered, maxRetransmits 0") })
    }

    @Test("--reject declined: the answerer exits 0 having rejected; the caller ends rejected and fails")
    func answererRejects() async throws {
        let run = try await rig.call(bob: ["--audio", "--reject", "declined"], alice: ["--audio"])
        let bob = try #require(run.bob.summary, "no summary from bob: \(run.bob.lines.suffix(5))")
        let alice = try #require(run.alice.summary, "no summary from alice: \(run.alice.lines.suffix(5))")
        #expect(run.bobStatus == 0, "bob: \(bob["result"] ?? "?")")
        #expect(run.aliceStatus == 1)
        #expect(rig.value(bob, "endReason") as? String == "rejected")
        #expect(rig.value(alice, "endReason") as? String == "rejected")
        #expect(rig.value(alice, "callStates") as? [String] == ["RINGING", "ENDED"])
    }

    @Test("--cancel-after: the caller cancels while the answerer (--answer-delay) still rings; both end cancelled")
    func callerCancels() async throws {
        let run = try await rig.call(bob: ["--audio", "--answer-delay", "5"], alice: ["--audio", "--cancel-after", "0.5"])
        let bob = try #require(run.bob.summary, "no summary from bob: \(run.bob.lines.suffix(5))")
        let alice = try #require(run.alice.summary, "no summary from alice: \(run.alice.lines.suffix(5))")
        #expect(run.aliceStatus == 0, "alice: \(alice["result"] ?? "?")")
        #expect(rig.value(alice, "endReason") as? String == "cancelled")
        #expect(rig.value(bob, "endReason") as? String == "cancelled")
        // An invite that ends while --answer-delay lets it ring is an outcome the rig checks by
        // endReason, not a failure of the answerer.
        #expect(run.bobStatus == 0)
        let incoming = (rig.value(bob, "steps") as? [[String: Any]] ?? []).first { $0["name"] as? String == "incoming" }
        #expect((incoming?["detail"] as? String)?.hasSuffix("ended while ringing: cancelled") == true, "\(incoming ?? [:])")
    }

    @Test("--send-message: the other side's summary lists the MESSAGE_RECEIVED event with its items in order")
    func sendMessageEnvelope() async throws {
        let run = try await rig.call(bob: ["--data"],
                                     alice: ["--data", "--duration", "2", "--send-message", "k=v", "--send-message", "note=é \"q\""])
        let bob = try #require(run.bob.summary, "no summary from bob: \(run.bob.lines.suffix(5))")
        #expect(run.aliceStatus == 0)
        #expect(run.bobStatus == 0)
        let received = try #require(rig.value(bob, "manageCall.received") as? [[String: Any]])
        let message = try #require(received.first { $0["eventType"] as? String == "MESSAGE_RECEIVED" })
        let items = (message["data"] as? [[String: String]])?.map { [$0["dataName"] ?? "", $0["dataValue"] ?? ""] }
        #expect(items == [["k", "v"], ["note", "é \"q\""]])
    }

    @Test("--request-video-after on an audio call: video added both ways, frames decode, removed again, frames stop")
    func videoAddedAndRemovedMidCall() async throws {
        let run = try await rig.call(bob: ["--audio"], alice: ["--audio", "--duration", "10", "--request-video-after", "1"])
        let alice = try #require(run.alice.summary, "no summary from alice: \(run.alice.lines.suffix(5))")
        #expect(run.aliceStatus == 0, "alice: \(alice["result"] ?? "?")")
        #expect(run.bobStatus == 0)
        let steps = rig.value(alice, "steps") as? [[String: Any]] ?? []
        for name in ["video added", "video removed"] {
            let step = steps.first { $0["name"] as? String == name }
            #expect(step?["passed"] as? Bool == true, "\(name): \(step ?? [:])")
        }
        #expect((rig.value(alice, "media.video.framesDecoded") as? Int ?? 0) >= 30)
    }

    @Test("flags used in the wrong role are usage errors")
    func roleFlagsAreChecked() async throws {
        for arguments in [["--call", "bob", "--reject", "declined"], ["--answer", "--cancel-after", "1"],
                          ["--call", "bob", "--answer-delay", "1"], ["--answer", "--reject", "unavailable"],
                          ["--call", "bob", "--unordered"], ["--call", "bob", "--echo-count", "1", "--echo-sizes", "1,x"],
                          ["--call", "bob,carol"], ["--call", "bob", "--first-answer"], ["--call", "bob", "--invite-more", "carol"],
                          ["--answer", "--cancel-invite", "carol"], ["--answer", "--ring-timeout", "5"],
                          ["--group", "--call", "bob,carol", "--first-answer"], ["--group", "--call", "bob", "--ring-timeout", "0"]] {
            let peer = try TernPeerCommandTests.Child("peer", ["peer", "--signal", "ws://127.0.0.1:1/v1", "--user", "alice"] + arguments)
            #expect(await peer.exit(within: 30) == 64, "\(arguments)")
        }
    }
}

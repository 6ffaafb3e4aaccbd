import Foundation
import Testing

/// The `tern peer` flags the group-call rigs drive (Interop/chromium/group_cases.py), Tern members
/// only, audio-only to stay light: the call's life cycle from the command line, each invitee's
/// answer tracked on its own, and first answer wins.
@Suite("tern peer group flags (subprocesses)", .serialized)
struct TernPeerGroupFlagsTests {
    let rig = TernPeerCommandTests()

    /// Starts `tern signal`, the answerers (each registered before the next starts), then the
    /// caller `alice`; waits for every one to exit. Children by user.
    func run(answerers: [(String, [String])], alice aliceArguments: [String])
        async throws -> [String: (child: TernPeerCommandTests.Child, status: Int32?)] {
        let (signal, url) = try await rig.startSignal()
        defer { signal.kill() }
        let common = ["peer", "--signal", url, "--json", "--ice-address", "127.0.0.1", "--audio"]
        var children: [(String, TernPeerCommandTests.Child)] = []
        defer { for (_, child) in children { child.kill() } }
        for (user, arguments) in answerers {
            let child = try TernPeerCommandTests.Child(user, common + ["--user", user, "--answer", "--wait", "30"] + arguments)
            children.append((user, child))
            guard await child.line(containing: "\"event\":\"registered\"") != nil else {
                throw TernPeerCommandTests.TestFailure("\(user) did not register: \(child.lines.suffix(5))")
            }
        }
        children.append(("alice", try TernPeerCommandTests.Child("alice", common + ["--user", "alice"] + aliceArguments)))
        var out: [String: (child: TernPeerCommandTests.Child, status: Int32?)] = [:]
        for (user, child) in children.reversed() { out[user] = (child, await child.exit(within: 60)) }
        return out
    }

    @Test("--group: a reject, a ring-out, an accept, then --invite-more and --cancel-invite, each member's states in the caller's summary")
    func groupLifeCycleFromTheCommandLine() async throws {
        // The call lasts 8 s: dave, invited once the call runs, must be in it 3 s for his audio
        // check, and on a loaded machine his legs connect 3 s or more after the call starts.
        let group = ["--group"]
        let run = try await run(
            answerers: [("bob", group + ["--reject", "busy"]), ("carol", group + ["--answer-delay", "30"]),
                        ("erin", group), ("dave", group), ("frank", group + ["--answer-delay", "30"])],
            alice: group + ["--call", "bob,carol,erin", "--ring-timeout", "2", "--invite-more", "dave,frank",
                            "--cancel-invite", "frank", "--duration", "8"])
        for (user, result) in run {
            #expect(result.status == 0, "\(user): \(result.child.summary?["result"] ?? "no summary") \(result.child.lines.suffix(3))")
        }
        let alice = try #require(run["alice"]?.child.summary)
        let members = rig.value(alice, "group.members") as? [String: [String]] ?? [:]
        #expect(members["bob"]?.contains("bob rejected(busy)") == true, "\(members)")
        #expect(members["carol"]?.contains("carol timeout") == true, "\(members)")
        #expect(members["frank"]?.contains("frank cancelled") == true, "\(members)")
        #expect(members["dave"]?.contains("dave accepted") == true && members["erin"]?.contains("erin accepted") == true, "\(members)")
        let steps = (rig.value(alice, "steps") as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(steps.contains("invite-more") && steps.contains("cancel"), "\(steps)")
        #expect(rig.value(run["carol"]?.child.summary, "endReason") as? String == "noAnswer")
        #expect(rig.value(run["frank"]?.child.summary, "endReason") as? String == "cancelled")
        // dave joined later and offered to alice and erin: both hear him, he hears both.
        let heard = rig.value(run["dave"]?.child.summary, "group.heardFrom") as? [String: Double] ?? [:]
        #expect(Set(heard.keys) == ["alice", "erin"], "\(heard)")
    }

    @Test("--first-answer: every invitee rings, the first to accept has a one-to-one call, the other ends answeredElsewhere")
    func firstAnswerFromTheCommandLine() async throws {
        let run = try await run(answerers: [("bob", []), ("carol", ["--answer-delay", "30"])],
                                alice: ["--call", "bob,carol", "--first-answer", "--duration", "2"])
        for (user, result) in run {
            #expect(result.status == 0, "\(user): \(result.child.summary?["result"] ?? "no summary")")
        }
        #expect(rig.value(run["alice"]?.child.summary, "endReason") as? String == "localHangUp")
        #expect(rig.value(run["bob"]?.child.summary, "endReason") as? String == "remoteHangUp")
        #expect(rig.value(run["carol"]?.child.summary, "endReason") as? String == "answeredElsewhere")
        let tone = rig.value(run["alice"]?.child.summary, "media.audio.detectedToneHz") as? Double ?? 0
        #expect(abs(tone - 660) <= 13, "alice heard \(tone) Hz, want bob's 660 Hz")
    }
}

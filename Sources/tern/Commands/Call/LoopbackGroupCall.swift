import Foundation
import TernCall
import TernCore
import TernPeer
import TernSignaling

/// `tern call --loopback --group N`: N call agents in one process through an in-process signaling
/// switchboard; alice invites the others into one group call (a full mesh over real ICE,
/// DTLS-SRTP and SCTP on 127.0.0.1). Each member sends its own tone and test-pattern video to
/// every other; each must hear the others' tones and decode their video; sendMessage reaches
/// all; bob quits and the call goes on; alice ends it for everyone.
struct LoopbackGroupCall {
    static let names = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"]
    static let tones: [Double] = [440, 660, 880, 1_100, 1_320, 1_540, 1_760, 1_980]

    let size: Int
    let duration: Duration
    let video: Bool
    let timeline: Timeline
    var steps = StepLog()

    /// Runs the call; returns the summary object and its text.
    mutating func run() async -> (JSONValue, String) {
        let switchboard = SignalingSwitchboard()
        let timeouts = Task {
            while !Task.isCancelled {
                _ = switchboard.fireTimeouts()
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
        defer { timeouts.cancel() }
        let names = Array(Self.names.prefix(size))
        let tones = Array(Self.tones.prefix(size))
        var members: [GroupMember] = []
        for (name, tone) in zip(names, tones) {
            guard let member = await makeMember(name, tone: tone, knownTones: tones, switchboard: switchboard) else {
                steps.fail("signaling", "could not register \(name)")
                return summary(members, setupMs: nil)
            }
            members.append(member)
        }
        steps.pass("signaling", "\(names.joined(separator: ", ")) registered (protocol v1 router, in-process)")
        let watchers = members.enumerated().map { $0.element.watch(answering: $0.offset > 0, timeline: timeline) }
        defer { watchers.forEach { $0.cancel() } }
        let alice = members[0]
        let others = Array(names.dropFirst())

        let start = timeline.elapsedMilliseconds
        do {
            let id = try await alice.agent.call(to: others, media: MediaOptions(audio: true, video: video, data: true))
            timeline.log("call", "alice invites \(others.joined(separator: ", ")) into group call \(id)")
        } catch {
            steps.fail("invite", "\(error)")
            return summary(members, setupMs: nil)
        }
        var meshUp = false
        for _ in 0..<2000 where !meshUp {
            meshUp = await everyLegConnected(members)
            if !meshUp { try? await Task.sleep(for: .milliseconds(10)) }
        }
        let setupMs = timeline.elapsedMilliseconds - start
        guard meshUp else {
            steps.fail("connect", "not every member connected to every other within 20 s")
            return summary(members, setupMs: nil)
        }
        steps.pass("connect", String(format: "a full mesh of %d members (%d legs) up %.1f ms after the invite",
                                     size, size * (size - 1) / 2, setupMs))

        var pumps: [MediaPump] = []
        for member in members {
            for other in names where other != member.name {
                let agent = member.agent
                let callId = member.snapshot.callId ?? ""
                pumps.append(MediaPump(senders: { await agent.senders(callId: callId, member: other) }, toneHz: member.toneHz))
            }
        }
        defer { pumps.forEach { $0.stop() } }
        try? await Task.sleep(for: duration / 2)
        await exchangeMessages(members)
        try? await Task.sleep(for: duration / 2)
        checkMedia(members)
        await quitAndEnd(members)
        return summary(members, setupMs: setupMs)
    }

    private func everyLegConnected(_ members: [GroupMember]) async -> Bool {
        for member in members where !(await member.connected(to: members.map(\.name).filter { $0 != member.name })) {
            return false
        }
        return true
    }

    private func makeMember(_ name: String, tone: Double, knownTones: [Double], switchboard: SignalingSwitchboard)
        async -> GroupMember?
    {
        let client = SignalingClient(transport: InMemorySignalingTransport(switchboard: switchboard),
                                     options: SignalingClientOptions(autoAcceptAssignedCalls: false, maxConcurrentCalls: nil))
        do { try await client.register(user: name, token: "") } catch { return nil }
        let agent = CallAgent(user: name, signaling: client, peerConfiguration: .loopback)
        do { try await agent.start() } catch { return nil }
        return GroupMember(name: name, agent: agent, toneHz: tone, knownTones: knownTones)
    }

    /// Every member sends one message to all; each must get one from every other member.
    private mutating func exchangeMessages(_ members: [GroupMember]) async {
        for member in members {
            do {
                try await member.agent.sendMessage(eventData: [AttachedData(dataName: "text", dataValue: "hello from \(member.name)")],
                                                   to: nil)
            } catch {
                steps.fail("messages", "\(member.name) could not send: \(error)")
                return
            }
        }
        let everyone = await waitFor(seconds: 5) {
            members.allSatisfy { $0.snapshot.messagesFrom.count == members.count - 1 }
        }
        steps.check("messages", everyone,
                    passed: "sendMessage to all: each member got one from each of the \(members.count - 1) others",
                    failed: "messages received: " + members.map { "\($0.name) \($0.snapshot.messagesFrom.count)" }.joined(separator: ", "))
    }

    /// Each member hears every other member's tone (±2 %) and decodes video from each.
    private mutating func checkMedia(_ members: [GroupMember]) {
        var missing: [String] = []
        for member in members {
            let heard = member.heard
            for other in members where other !== member {
                guard let hz = heard[other.name], abs(hz - other.toneHz) <= other.toneHz * 0.02 else {
                    missing.append("\(member.name) did not hear \(other.name)'s \(Int(other.toneHz)) Hz (heard \(heard[other.name].map { "\(Int($0)) Hz" } ?? "nothing"))")
                    continue
                }
            }
        }
        steps.check("audio", missing.isEmpty, passed: "every member heard every other member's tone",
                    failed: missing.joined(separator: "; "))
        guard video else { return }
        let frames = members.flatMap { member in
            members.filter { $0 !== member }.map { (member.name, $0.name, member.framesFrom.withLock { $0 }[$0.name] ?? 0) }
        }
        let starved = frames.filter { $0.2 < 10 }
        steps.check("video", starved.isEmpty,
                    passed: "every member decoded test-pattern video from every other (fewest: \(frames.map(\.2).min() ?? 0) frames)",
                    failed: starved.map { "\($0.0) decoded \($0.2) frames from \($0.1)" }.joined(separator: "; "))
    }

    /// bob quits (the call goes on between the others, media still flowing), then alice ends it.
    private mutating func quitAndEnd(_ members: [GroupMember]) async {
        guard members.count >= 3 else { return }
        let alice = members[0], bob = members[1]
        let rest = members.filter { $0 !== bob }
        do { try await bob.agent.quit() } catch {
            steps.fail("quit", "bob could not quit: \(error)")
            return
        }
        // A bound, not a timing: on a loaded machine (the test suite runs this beside others on
        // two cores) the members' signaling tasks can wait seconds for a thread.
        let seen = await waitFor(seconds: 15) {
            rest.allSatisfy { $0.snapshot.memberStates["bob"]?.last == "bob quit" }
        }
        let before = rest.map { $0.framesFrom.withLock { $0 } }
        try? await Task.sleep(for: .seconds(1))
        let flowing = !video || zip(rest, before).allSatisfy { member, earlier in
            rest.filter { $0 !== member }.allSatisfy { (member.framesFrom.withLock { $0 }[$0.name] ?? 0) > (earlier[$0.name] ?? 0) }
        }
        let stillIn = await waitFor(seconds: 2) { rest.allSatisfy { $0.snapshot.callStates.last == "IN_PROGRESS" } }
        steps.check("quit", seen && flowing && stillIn && bob.snapshot.endReason == "localHangUp",
                    passed: "bob quit; \(rest.map(\.name).joined(separator: ", ")) saw it and the call went on with media",
                    failed: "after bob's quit: seen \(seen), media flowing \(flowing), others in progress \(stillIn), bob \(bob.snapshot.endReason ?? "not ended")")
        do { try await alice.agent.endForEveryone() } catch {
            steps.fail("end", "alice could not end the call: \(error)")
            return
        }
        let ended = await waitFor(seconds: 5) {
            alice.snapshot.endReason == "localHangUp" && rest.dropFirst().allSatisfy { $0.snapshot.endReason == "remoteHangUp" }
        }
        steps.check("end", ended, passed: "alice ended the call for everyone (the others: ENDED remoteHangUp)",
                    failed: "after alice's end: " + rest.map { "\($0.name) \($0.snapshot.endReason ?? "not ended")" }.joined(separator: ", "))
    }

    private func summary(_ members: [GroupMember], setupMs: Double?) -> (JSONValue, String) {
        var byName: [String: JSONValue] = [:]
        let callerView = members.first?.snapshot.memberStates ?? [:]
        for member in members {
            let snapshot = member.snapshot
            let heard = member.heard.sorted { $0.key < $1.key }
            let frames = member.framesFrom.withLock { $0 }
            byName[member.name] = .object([
                "tone": .number(member.toneHz),
                "states": .array((callerView[member.name] ?? []).map { .string($0) }),
                "callStates": .array(snapshot.callStates.map { .string($0) }),
                "endReason": snapshot.endReason.map { .string($0) } ?? .null,
                "heard": .array(heard.map { .number($0.value.rounded()) }),
                "heardFrom": .object(heard.reduce(into: [:]) { $0[$1.key] = .number($1.value.rounded()) }),
                "framesDecodedFrom": .object(frames.reduce(into: [:]) { $0[$1.key] = .int($1.value) }),
                "messagesFrom": .array(snapshot.messagesFrom.map { .string($0) }),
            ])
        }
        let stepValues: [JSONValue] = steps.steps.map {
            .object(["name": .string($0.name), "passed": .bool($0.passed), "detail": .string($0.detail)])
        }
        let json = JSONValue.object([
            "summary": .bool(true),
            "group": .object(["size": .int(size), "setupMs": setupMs.map { .number(($0 * 10).rounded() / 10) } ?? .null,
                              "members": .object(byName)]),
            "steps": .array(stepValues),
            "result": .string(steps.result),
        ])
        var text = "group call of \(size): \(steps.result)\n"
        for step in steps.steps { text += "  \(step.passed ? "✓" : "✗") \(step.name): \(step.detail)\n" }
        for member in members {
            let heard = member.heard.sorted { $0.key < $1.key }.map { "\($0.key) \(Int($0.value)) Hz" }.joined(separator: ", ")
            let frames = member.framesFrom.withLock { $0 }.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            text += "  \(member.name): heard \(heard)" + (video ? "; video frames from \(frames)\n" : "\n")
        }
        return (json, text)
    }
}

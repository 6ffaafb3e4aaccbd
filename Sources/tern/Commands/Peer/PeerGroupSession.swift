import Foundation
import TernCall
import TernSignaling

/// `tern peer --group`: one member of a group call through a real signaling server. As caller
/// (`--call a,b`) it invites everyone into one call and ends it for everyone after --duration; as
/// answerer it accepts the group invite and stays until the call ends (or its --duration, then
/// quits). It sends its tone and test pattern to every other member over its own leg and checks,
/// per member, the tone heard and the video frames decoded.
struct PeerGroupSession {
    let options: PeerSession.Options
    let invitees: [String]
    let toneHz: Double
    let timeline: Timeline
    var steps = StepLog()

    var isCaller: Bool { !invitees.isEmpty }

    mutating func run() async -> (JSONValue, String) {
        let url = options.signalURLs.first ?? ""
        let client: SignalingClient
        do {
            client = try await PeerSession.registeredClient(url: url, user: options.user, token: options.token, tls: options.signalTLS)
        } catch {
            steps.fail("signaling", "\(url): \(error)")
            return summary(nil)
        }
        let agent = PeerSession.makeAgent(options, rotation: SignalingURLRotation(urls: options.signalURLs, first: client),
                                          timeline: timeline)
        do { try await agent.start() } catch {
            steps.fail("signaling", "the call client did not start: \(error)")
            return summary(nil)
        }
        steps.pass("signaling", "registered as \(options.user) at \(url)")
        timeline.log("signal", "registered as \(options.user)", fields: ["event": .string("registered"), "user": .string(options.user)])
        let member = GroupMember(name: options.user, agent: agent, toneHz: toneHz, knownTones: nil)
        let watcher = member.watch(answering: !isCaller, timeline: timeline, media: options.media)
        defer { watcher.cancel() }
        let media = options.media ?? MediaOptions(audio: true, video: true, data: true)

        if isCaller {
            do {
                let id = try await agent.call(to: invitees, media: media, attachedData: options.attachedData)
                timeline.log("call", "\(options.user) invites \(invitees.joined(separator: ", ")) into group call \(id)")
                steps.pass("invite", "invited \(invitees.joined(separator: ", ")) with \(media)")
            } catch {
                steps.fail("invite", "\(error)")
                return summary(member)
            }
        } else {
            let seconds = options.wait.seconds
            let rang = await waitFor(seconds: seconds) { !member.snapshot.callStates.isEmpty || StopRequest.requested }
            guard rang else {
                steps.fail("incoming", "no group invite within \(Int(seconds)) s")
                return summary(member)
            }
            steps.pass("incoming", "group invite accepted")
        }
        // Up: every invitee answered one way or another and every member in the call is connected to us.
        var settled = false
        for _ in 0..<4000 where !settled && !StopRequest.requested {
            settled = await meshSettled(member)
            if !settled { try? await Task.sleep(for: .milliseconds(10)) }
        }
        let others = inCall(member)
        guard settled, !others.isEmpty else {
            steps.fail("connect", "the mesh did not settle within 40 s: members \(member.snapshot.memberStates.mapValues { $0.last ?? "" })")
            await agent.stop()
            return summary(member)
        }
        steps.pass("connect", "legs connected to \(others.joined(separator: ", "))")

        var pumps: [String: Task<Void, Never>] = [:]
        let clock = ContinuousClock()
        let start = clock.now
        let callId = member.snapshot.callId ?? ""
        let duration = options.duration ?? (isCaller ? .seconds(6) : nil)
        let toneHz = self.toneHz
        while !StopRequest.requested, member.snapshot.callStates.last != "ENDED" {
            if let duration, clock.now >= start + duration { break }
            for other in inCall(member) where pumps[other] == nil {
                let size = options.videoSize
                pumps[other] = Task { await MediaPump.run(senders: { await agent.senders(callId: callId, member: other) },
                                                          toneHz: toneHz, videoSize: size) }
            }
            try? await Task.sleep(for: .milliseconds(250))
        }
        checkMedia(member, others: others, video: media.video)
        pumps.values.forEach { $0.cancel() }
        if member.snapshot.callStates.last != "ENDED" {
            do { if isCaller { try await agent.endForEveryone() } else { try await agent.quit() } } catch {
                steps.fail("hang-up", "\(error)")
            }
        }
        _ = await waitFor(seconds: 5) { member.snapshot.callStates.last == "ENDED" }
        let end = member.snapshot.endReason
        steps.check("hang-up", end != nil, passed: "ENDED (\(end ?? ""))", failed: "the call did not end")
        await agent.stop()
        return summary(member)
    }

    /// The other members accepted in the call now.
    private func inCall(_ member: GroupMember) -> [String] {
        member.snapshot.memberStates.compactMap { user, states in
            user != options.user && states.last == "\(user) accepted" ? user : nil
        }.sorted()
    }

    private func meshSettled(_ member: GroupMember) async -> Bool {
        let states = member.snapshot.memberStates
        guard !states.isEmpty, !states.values.contains(where: { ($0.last ?? "").hasSuffix(" inviting") || ($0.last ?? "").hasSuffix(" ringing") })
        else { return false }
        return await member.connected(to: inCall(member))
    }

    private mutating func checkMedia(_ member: GroupMember, others: [String], video: Bool) {
        let heard = member.heard
        let frames = member.framesFrom.withLock { $0 }
        let deaf = others.filter { heard[$0] == nil }
        steps.check("audio", deaf.isEmpty, passed: "a tone from every member: " + others.map { "\($0) \(Int(heard[$0] ?? 0)) Hz" }.joined(separator: ", "),
                    failed: "no tone from \(deaf.joined(separator: ", "))")
        guard video else { return }
        let blind = others.filter { (frames[$0] ?? 0) < 10 }
        steps.check("video", blind.isEmpty, passed: "video decoded from every member: " + others.map { "\($0) \(frames[$0] ?? 0)" }.joined(separator: ", "),
                    failed: "fewer than 10 frames from \(blind.joined(separator: ", "))")
    }

    private func summary(_ member: GroupMember?) -> (JSONValue, String) {
        var fields: [String: JSONValue] = [
            "summary": .bool(true), "user": .string(options.user), "role": .string(isCaller ? "caller" : "answerer"),
            "result": .string(steps.result),
            "steps": .array(steps.steps.map { .object(["name": .string($0.name), "passed": .bool($0.passed), "detail": .string($0.detail)]) }),
        ]
        if let member {
            let snapshot = member.snapshot
            fields["callStates"] = .array(snapshot.callStates.map { .string($0) })
            fields["endReason"] = snapshot.endReason.map { .string($0) } ?? .null
            fields["group"] = .object([
                "tone": .number(toneHz),
                "members": .object(snapshot.memberStates.mapValues { .array($0.map { .string($0) }) }),
                "heardFrom": .object(member.heard.mapValues { .number($0.rounded()) }),
                "framesDecodedFrom": .object(member.framesFrom.withLock { $0 }.mapValues { .int($0) }),
            ])
        }
        var text = "tern peer \(options.user) (group, \(isCaller ? "caller" : "answerer")): \(steps.result)\n"
        for step in steps.steps { text += "  \(step.passed ? "✓" : "✗") \(step.name): \(step.detail)\n" }
        return (.object(fields), text)
    }
}

import Foundation
import TernCall
import TernPeer
import TernSignaling

/// `tern peer --group`: one member of a group call through a real signaling server. As caller
/// (`--call a,b`) it invites everyone into one call and ends it for everyone after --duration; as
/// answerer it accepts the group invite (or rejects it with --reject, or lets it ring for
/// --answer-delay) and stays until the call ends (or its --duration, then quits). Any member may
/// invite more users once its legs are up (--invite-more) and cancel invitations still ringing
/// (--cancel-invite). It sends its tone and test pattern to every other member over its own leg and
/// checks, per member, the tone heard and the video frames decoded.
struct PeerGroupSession {
    /// What this member does to the call besides taking part.
    struct Actions {
        /// Invited once this member's legs are all up (`--invite-more`).
        var inviteMore: [String] = []
        /// Their invitations are cancelled as soon as they ring (`--cancel-invite`).
        var cancelInvitees: [String] = []
        /// How long each invitation rings before it times out (`--ring-timeout`).
        var ringTimeout: Duration = .seconds(30)
    }

    let options: PeerSession.Options
    let invitees: [String]
    let toneHz: Double
    var actions = Actions()
    let timeline: Timeline
    var steps = StepLog()
    /// When media started flowing to each member (its pump), for the media checks.
    private var mediaSince: [String: ContinuousClock.Instant] = [:]
    /// Video frames handed to each leg's transport, as last read while the leg was up.
    private var framesSentTo: [String: Int] = [:]

    init(options: PeerSession.Options, invitees: [String], toneHz: Double, actions: Actions, timeline: Timeline) {
        self.options = options
        self.invitees = invitees
        self.toneHz = toneHz
        self.actions = actions
        self.timeline = timeline
    }

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
        let answersAtOnce = options.reject == nil && options.answerDelay == nil
        let watcher = member.watch(answering: !isCaller && answersAtOnce, timeline: timeline, media: options.media)
        defer { watcher.cancel() }
        let media = options.media ?? MediaOptions(audio: true, video: true, data: true)

        if isCaller {
            do {
                let id = try await agent.call(to: invitees, media: media, attachedData: options.attachedData, timeout: actions.ringTimeout)
                timeline.log("call", "\(options.user) invites \(invitees.joined(separator: ", ")) into group call \(id)")
                steps.pass("invite", "invited \(invitees.joined(separator: ", ")) with \(media)")
            } catch {
                steps.fail("invite", "\(error)")
                return summary(member)
            }
        } else {
            guard await answer(member, media: media) else {
                await agent.stop()
                return summary(member)
            }
        }
        guard await settle(member) else {
            await agent.stop()
            return summary(member)
        }
        steps.pass("connect", "legs connected to \(inCall(member).joined(separator: ", "))")

        var pumps: [String: MediaPump] = [:]
        let clock = ContinuousClock()
        let start = clock.now
        let callId = member.snapshot.callId ?? ""
        let duration = options.duration ?? (isCaller ? .seconds(6) : nil)
        let toneHz = self.toneHz
        var nextLegStats = clock.now + .seconds(1)
        while !StopRequest.requested, member.snapshot.callStates.last != "ENDED" {
            // At the end of the call's time, a member whose tone or pictures have not been read
            // yet (its own sending starts when its side of the leg settles, which on a loaded
            // machine can be seconds after ours) gets up to `mediaGrace` more, sending on.
            if let duration, clock.now >= start + duration,
               clock.now >= start + duration + Self.mediaGrace || mediaComplete(member, video: media.video, at: clock.now) {
                break
            }
            for other in inCall(member) where pumps[other] == nil {
                let size = options.videoSize, grain = options.videoGrain
                mediaSince[other] = clock.now
                pumps[other] = MediaPump(senders: { await agent.senders(callId: callId, member: other) },
                                         toneHz: toneHz, videoSize: size, grain: grain)
            }
            // What this member handed each leg's transport, beside what it decoded from each: a
            // leg that decodes few frames says whether its sender made them (read while the leg
            // is up: a member that leaves takes its senders with it).
            for other in pumps.keys {
                if let video = await agent.senders(callId: callId, member: other).video { framesSentTo[other] = video.framesSent }
            }
            if clock.now >= nextLegStats {
                nextLegStats = clock.now + .seconds(1)
                for other in pumps.keys.sorted() {
                    if let peer = await agent.peer(callId: callId, member: other) { logLegStats(peer.getStats(), to: other) }
                }
            }
            try? await Task.sleep(for: .milliseconds(250))
        }
        checkMedia(member, video: media.video, until: clock.now)
        pumps.values.forEach { $0.stop() }
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

    /// The answerer's part before the mesh: waits for the group invite, then accepts it (at once,
    /// or after `--answer-delay` if it still rings) or rejects it; true when this member joined.
    private mutating func answer(_ member: GroupMember, media: MediaOptions) async -> Bool {
        let seconds = options.wait.seconds
        let rang = await waitFor(seconds: seconds) { member.snapshot.invitedBy != nil || StopRequest.requested }
        guard rang, let from = member.snapshot.invitedBy else {
            steps.fail("incoming", "no group invite within \(Int(seconds)) s")
            return false
        }
        if let reason = options.reject {
            do { try await member.agent.reject(reason: reason) } catch {
                steps.fail("reject", "could not reject: \(error)")
                return false
            }
            _ = await waitFor(seconds: 10) { member.snapshot.callStates.last == "ENDED" }
            let end = member.snapshot.endReason
            steps.check("reject", member.snapshot.callStates.last == "ENDED",
                        passed: "rejected the invite from \(from) (\(reason)): ENDED (\(end ?? ""))",
                        failed: "not ENDED after the reject")
            return false
        }
        if let delay = options.answerDelay {
            let ended = await waitFor(seconds: delay.seconds) { member.snapshot.callStates.last == "ENDED" || StopRequest.requested }
            if ended {
                // Rang out, cancelled or answered elsewhere: what --answer-delay is for; the
                // summary's endReason says which, for the rig to check.
                steps.pass("incoming", "invited by \(from); the invitation ended while ringing: \(member.snapshot.endReason ?? "?")")
                return false
            }
            timeline.log("call", "\(options.user) accepts after ringing \(delay.seconds) s")
            do { try await member.agent.accept(media: options.media ?? media) } catch {
                steps.fail("incoming", "could not accept after \(delay.seconds) s: \(error)")
                return false
            }
        }
        steps.pass("incoming", "group invite from \(from) accepted")
        return true
    }

    /// Waits until every invitation is answered one way or another and every member in the call is
    /// connected to us; invites `--invite-more` once up and cancels `--cancel-invite` users as they
    /// ring. False (with a failed step) if that takes more than 40 s or nobody else is in the call.
    private mutating func settle(_ member: GroupMember) async -> Bool {
        var invitedMore = actions.inviteMore.isEmpty
        var cancelled: Set<String> = []
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(40)
        while clock.now < deadline, !StopRequest.requested, member.snapshot.callStates.last != "ENDED" {
            let states = member.snapshot.memberStates
            for user in actions.cancelInvitees where !cancelled.contains(user) && states[user]?.last == "\(user) ringing" {
                cancelled.insert(user)
                do {
                    try await member.agent.cancelInvitations(for: [user])
                    steps.pass("cancel", "cancelled the invitation of \(user) while it rang")
                } catch {
                    steps.fail("cancel", "could not cancel \(user)'s invitation: \(error)")
                }
            }
            if await meshSettled(member) {
                if invitedMore { return true }
                invitedMore = true
                do {
                    try await member.agent.inviteMore(actions.inviteMore, timeout: actions.ringTimeout)
                    steps.pass("invite-more", "invited \(actions.inviteMore.joined(separator: ", ")) into the running call")
                } catch {
                    steps.fail("invite-more", "\(error)")
                    return false
                }
                // The new invitations show in `members` before the mesh counts as settled again.
                let more = actions.inviteMore
                _ = await waitFor(seconds: 5) {
                    more.allSatisfy { user in member.snapshot.memberStates[user] != nil }
                }
            }
            try? await Task.sleep(for: .milliseconds(10))
        }
        let ended = member.snapshot.callStates.last == "ENDED"
        steps.fail("connect", ended ? "the call ended before the mesh settled: \(member.snapshot.endReason ?? "?")"
                   : "the mesh did not settle within 40 s: members \(member.snapshot.memberStates.mapValues { $0.last ?? "" })")
        return false
    }

    /// The other members accepted in the call now.
    private func inCall(_ member: GroupMember) -> [String] {
        member.snapshot.memberStates.compactMap { user, states in
            user != options.user && states.last == "\(user) accepted" ? user : nil
        }.sorted()
    }

    private func meshSettled(_ member: GroupMember) async -> Bool {
        let states = member.snapshot.memberStates
        guard !states.isEmpty, !states.values.contains(where: { ($0.last ?? "").hasSuffix(" inviting") || ($0.last ?? "").hasSuffix(" ringing") }),
              !inCall(member).isEmpty
        else { return false }
        return await member.connected(to: inCall(member))
    }

    /// One line a second per leg (category `stats`): what this member's sender to `member` is
    /// allowed (the leg's bandwidth estimate, the video encoder's target) and makes of it (frames
    /// a second, picture size, what limits it), with the leg's round-trip time; a leg that
    /// starves shows here whether its estimate, its pacer or its encoder held it back.
    private func logLegStats(_ report: StatsReport, to member: String) {
        let video = report.outbound(.video)
        let kbps = { (bits: Double?) in bits.map { String(Int($0 / 1000)) } ?? "-" }
        let rtt = report.candidatePair?.currentRoundTripTime.map { String(Int($0 * 1000)) } ?? "-"
        let size = video?.frameWidth.map { "\($0)x\(video?.frameHeight ?? 0)" } ?? "-"
        let fps = video?.framesPerSecond.map { String(Int($0)) } ?? "-"
        let limited = video?.qualityLimitationDurations?["bandwidth"].map { String(format: "%.1f", $0) } ?? "-"
        let droppedByPacer = report.transport.rtpPacketsDroppedByPacer ?? 0
        let pair = report.candidatePair
        let parts = "delay-based \(kbps(pair?.delayBasedBitrate)), loss-based \(kbps(pair?.lossBasedBitrate))"
            + (pair?.remoteEstimatedBitrate.map { ", REMB \(kbps($0))" } ?? "")
            + ", \(pair?.transportLossRatio.map { String(format: "%.0f", $0 * 100) } ?? "-") % lost"
        timeline.log("stats", "\(options.user): leg to \(member): estimate \(kbps(pair?.availableOutgoingBitrate)) kbit/s (\(parts)), "
                     + "video target \(kbps(video?.targetBitrate)) kbit/s, \(fps) fps \(size), \(video?.framesSent ?? 0) frames, "
                     + "bandwidth-limited \(limited) s, rtt \(rtt) ms, dropped by pacer \(droppedByPacer)",
                     fields: ["member": .string(member)])
    }

    /// How long past the call's time the media check waits for members still unheard.
    static let mediaGrace: Duration = .seconds(5)
    static let minimumFrames = 10

    /// What the media check reads at `now`: the members media went to for at least 3 s, and
    /// which of them sent no tone (`deaf`) or fewer than `minimumFrames` frames (`blind`) so far.
    private struct MediaReadings {
        var checked: [String], deaf: [String], blind: [String]
        var heard: [String: Double], frames: [String: Int]
    }

    private func mediaReadings(_ member: GroupMember, at now: ContinuousClock.Instant) -> MediaReadings {
        let heard = member.heard
        let frames = member.framesFrom.withLock { $0 }
        let checked = mediaSince.filter { now - $0.value >= .seconds(3) }.keys.sorted()
        return MediaReadings(checked: checked, deaf: checked.filter { heard[$0] == nil },
                             blind: checked.filter { (frames[$0] ?? 0) < Self.minimumFrames }, heard: heard, frames: frames)
    }

    /// Whether every member checked at `now` has been heard and (with video) seen.
    private func mediaComplete(_ member: GroupMember, video: Bool, at now: ContinuousClock.Instant) -> Bool {
        let readings = mediaReadings(member, at: now)
        return readings.deaf.isEmpty && (!video || readings.blind.isEmpty)
    }

    /// Each member media went to for at least 3 s must have sent a tone and (with video) at least
    /// `minimumFrames` frames back; a member that left sooner is listed as not checked.
    private mutating func checkMedia(_ member: GroupMember, video: Bool, until end: ContinuousClock.Instant) {
        let readings = mediaReadings(member, at: end)
        let (checked, heard, frames) = (readings.checked, readings.heard, readings.frames)
        let unchecked = mediaSince.keys.filter { !checked.contains($0) }.sorted()
        let note = unchecked.isEmpty ? "" : " (not checked, in the call under 3 s: \(unchecked.joined(separator: ", ")))"
        steps.check("audio", !checked.isEmpty && readings.deaf.isEmpty,
                    passed: "a tone from every member: " + checked.map { "\($0) \(Int(heard[$0] ?? 0)) Hz" }.joined(separator: ", ") + note,
                    failed: checked.isEmpty ? "no member stayed 3 s\(note)" : "no tone from \(readings.deaf.joined(separator: ", "))")
        guard video else { return }
        steps.check("video", !checked.isEmpty && readings.blind.isEmpty,
                    passed: "video decoded from every member: " + checked.map { "\($0) \(frames[$0] ?? 0)" }.joined(separator: ", ") + note,
                    failed: checked.isEmpty ? "no member stayed 3 s\(note)"
                        : "fewer than \(Self.minimumFrames) frames from \(readings.blind.joined(separator: ", "))")
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
                "framesSentTo": .object(framesSentTo.mapValues { .int($0) }),
            ])
        }
        var text = "tern peer \(options.user) (group, \(isCaller ? "caller" : "answerer")): \(steps.result)\n"
        for step in steps.steps { text += "  \(step.passed ? "✓" : "✗") \(step.name): \(step.detail)\n" }
        return (.object(fields), text)
    }
}

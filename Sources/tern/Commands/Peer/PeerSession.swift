import Foundation
import TernCall
import TernCore
import TernPeer
import TernSCTP
import TernSDP
import TernSignaling
import TernSignalingClient
import TernSignalingServer

/// `tern peer`: one call agent on a real signaling server (protocol v1) that places or answers
/// one call, sends the synthetic media, runs the data-channel echo, and reports what happened.
struct PeerSession {
    struct Options {
        /// Signaling servers: the first is used first, the others in turn after a lost connection.
        var signalURLs: [String]
        var user: String
        var token: String
        /// Whom to call; nil: answer the first incoming call.
        var callee: String?
        /// What to offer (caller) or accept with (answerer); nil for the answerer: the invite's media.
        var media: MediaOptions?
        var echo: Bool
        var echoCount: Int?
        var echoFormat: EchoMessageFormat
        var echoInterval: Duration?
        /// The options of this peer's channel `tern-data` (unordered, maxRetransmits…).
        var ownChannel = DataChannelInit()
        /// The echo run's last message is sent at the peer's max-message-size.
        var echoLastAtMax = false
        /// Answerer: reject the first incoming call with this reason instead of accepting it.
        var reject: RejectReason?
        /// Answerer: let the call ring this long before accepting it.
        var answerDelay: Duration?
        /// Caller: cancel the invite if it is still unanswered after this long.
        var cancelAfter: Duration?
        /// Sent once in a `sendMessage` envelope on `manage-call` when the call is up.
        var sendMessage: [AttachedData] = []
        /// Caller: attached to the invite (the callee gets them, in order).
        var attachedData: [AttachedData] = []
        var peerConfiguration: PeerConfiguration
        /// Caller: how long the call lasts after IN_PROGRESS (nil: 5 s, or the echo run alone).
        /// Answerer: hang up after this long if the caller has not (nil: wait for the caller).
        var duration: Duration?
        /// Answerer: how long to wait for an incoming call.
        var wait: Duration
        var capture: CallCapture?
        /// `--stats-interval`: dump the W3C stats report this often (nil: never).
        var statsInterval: Duration?
        /// `--request-video-after`: ask for video both ways this long into the call.
        var requestVideoAfter: Duration?
        /// `--restart-ice-after`: restart ICE from this side this long into the call.
        var restartIceAfter: Duration?
        /// The tone the other side sends (`--expect-tone`): the audio check wants it within 2 %.
        var expectedToneHz: Double? = nil
        /// How a wss:// signaling server is verified (`--signal-ca`).
        var signalTLS = SignalingClientTLS.system
        /// The test pattern's size (`--video-size`).
        var videoSize = MediaPump.VideoSize.default
        /// The test pattern's per-frame luma noise (`--video-grain`, `TestPatternSource.grain`).
        var videoGrain = 0
        /// `--offline-until-push`: stay unregistered until a push arrives on this listener.
        var pushWait: PushWait?
        /// `--first-answer`: `callee` lists several users; every one rings, the first to accept gets the call.
        var firstAnswer = false
        /// How long the invite rings before it times out (`--ring-timeout`).
        var ringTimeout: Duration = .seconds(30)
    }

    /// Where the push webhook is received, and the secret its signature is checked with.
    struct PushWait {
        var host: String
        var port: Int
        var secret: String
    }

    let options: Options
    let timeline: Timeline
    var steps = StepLog()
    /// One stats sample per second, for the report.
    let samples = SampleLog()
    /// The manage-call events received, in order (for the summary).
    var manageEvents: [ManageCallEvent] = []
    /// Answerer: the invite's attached data as it arrived (nil on the calling side).
    var receivedAttachedData: [AttachedData]?
    /// `--offline-until-push`: the webhook listener, stopped at the end.
    var pushListener: SignalingPushListener?
    let pushArrival = PushArrival()

    init(options: Options, timeline: Timeline) {
        self.options = options
        self.timeline = timeline
    }

    var isCaller: Bool { options.callee != nil }

    /// Runs the session; every step is recorded, and the result is "ok" only if each happened.
    mutating func run() async -> CallSummary {
        let user = options.user
        var facts = CallSummary.PeerFacts(user: user, role: isCaller ? "caller" : "answerer", remoteUser: options.callee)
        guard let agent = await connect() else {
            var summary = CallSummary(steps: steps)
            summary.peer = facts
            return summary
        }
        let participant = CallParticipant(name: user, agent: agent, toneHz: isCaller ? 440 : 660, knownTones: nil)
        let own = options.ownChannel
        let echoRun = options.echoCount.map {
            EchoRun(count: $0, format: options.echoFormat, interval: options.echoInterval, ordered: own.ordered,
                    reliable: own.maxRetransmits == nil && own.maxPacketLifeTime == nil,
                    lastAtMaxMessageSize: options.echoLastAtMax)
        }
        let channels = PeerDataChannels(name: user, echo: options.echo, echoRun: echoRun, ownOptions: own, timeline: timeline)
        let watcher = startWatcher(participant, channels: channels).start()

        let woken = options.pushWait == nil ? true : await awaitPush(participant)
        let connected = !woken ? false : isCaller ? await placeCall(participant) : await awaitCall(participant)
        var summary = CallSummary(steps: steps, setupMs: nil, local: participant, facts: facts)
        if connected {
            summary = await runCall(participant, channels: channels, echoRun: echoRun)
        }
        await hangUp(participant, wasConnected: connected)
        await agent.stop()
        await pushListener?.stop()
        await watcher.value  // the agent's event stream ends with stop: every event is logged

        let observed = participant.snapshot
        manageEvents = observed.manageEvents
        if !isCaller { receivedAttachedData = observed.incomingAttachedData ?? [] }
        facts.remoteUser = facts.remoteUser ?? observed.incomingFrom
        facts.endReason = observed.endReason
        facts.signalingStatuses = observed.signalingStatuses
        facts.channelsOpened = channels.opened
        facts.messagesEchoed = channels.messagesEchoed
        facts.messagesEchoedByLabel = channels.messagesEchoedByLabel
        facts.messagesReceivedByLabel = channels.messagesReceivedByLabel
        facts.echo = summary.peer?.echo
        let final = CallSummary(steps: steps, setupMs: setupMs(observed), local: participant, facts: facts)
        summary = summary.merged(withLater: final)
        summary.steps = steps
        summary.messagesReceived = channels.messagesReceived
        return summary
    }

    /// Connects to the signaling server, registers, starts the call agent. The agent reconnects by
    /// itself when the connection drops (to each URL of `--signal` in turn) and resumes the call.
    private mutating func connect() async -> CallAgent? {
        if let pushWait = options.pushWait { return await connectAfterPush(pushWait) }
        let urls = options.signalURLs, user = options.user, token = options.token, tls = options.signalTLS
        guard let url = urls.first else { return nil }
        timeline.log("signal", "connecting to \(url) as \(user)")
        let client: SignalingClient
        do {
            client = try await Self.registeredClient(url: url, user: user, token: token, tls: tls)
        } catch {
            steps.fail("signaling", "\(url): \(error)")
            return nil
        }
        let agent = Self.makeAgent(options, rotation: SignalingURLRotation(urls: urls, first: client), timeline: timeline)
        do { try await agent.start() } catch {
            steps.fail("signaling", "the call client did not start: \(error)")
            await client.close()
            return nil
        }
        steps.pass("signaling", "registered as \(user) at \(url)")
        timeline.log("signal", "registered as \(user)", fields: ["event": .string("registered"), "user": .string(user)])
        return agent
    }

    /// An agent that connects to each `--signal` URL in turn, the rotation's first client first.
    static func makeAgent(_ options: Options, rotation: SignalingURLRotation, timeline: Timeline,
                          configuration: CallConfiguration = CallConfiguration()) -> CallAgent {
        let urls = options.signalURLs, user = options.user, token = options.token, tls = options.signalTLS
        return CallAgent(user: user, connect: {
            if let client = rotation.takeFirst() { return client }
            var lastError: (any Error)?
            for _ in urls.indices {
                let url = rotation.nextURL()
                do {
                    let client = try await Self.registeredClient(url: url, user: user, token: token, tls: tls)
                    timeline.log("signal", "reconnected to \(url) as \(user)",
                                 fields: ["event": .string("reconnected"), "url": .string(url)])
                    return client
                } catch {
                    lastError = error
                }
            }
            throw lastError ?? SignalingClientError.transport(.closed)
        }, peerConfiguration: options.peerConfiguration, configuration: configuration)
    }

    /// A connection to `url`, registered as `user`; the error says which step failed.
    static func registeredClient(url: String, user: String, token: String, tls: SignalingClientTLS)
        async throws -> SignalingClient
    {
        let client: SignalingClient
        do {
            // The call core decides busy and acceptance; the signaling client must not do it too.
            client = try await SignalingClient.connect(
                url: url, options: SignalingClientOptions(autoAcceptAssignedCalls: false, maxConcurrentCalls: nil), tls: tls)
        } catch {
            throw PeerSignalingError.cannotConnect(url: url, "\(error)")
        }
        do { try await client.register(user: user, token: token) } catch {
            await client.close()
            throw PeerSignalingError.registerRefused(url: url, user: user, "\(error)")
        }
        return client
    }

    private func startWatcher(_ participant: CallParticipant, channels: PeerDataChannels) -> CallWatcher {
        var watcher = CallWatcher(participant: participant, timeline: timeline)
        watcher.capture = options.capture
        watcher.onDataChannel = { _, channel in channels.adopt(channel) }
        if isCaller {
            if options.media?.data == true {
                watcher.onPeerCreated = { _, peer in channels.openOwnChannel(on: peer) }
            }
        } else {
            let media = options.media
            // Rejecting or answering late is done by `awaitCall`, not by the watcher.
            let answersAtOnce = options.reject == nil && options.answerDelay == nil
            watcher.answer = { invite in answersAtOnce ? media ?? invite.media : nil }
        }
        return watcher
    }

    /// Invites the callee; true once the call is IN_PROGRESS.
    private mutating func placeCall(_ participant: CallParticipant) async -> Bool {
        guard let callee = options.callee else { return false }
        let media = options.media ?? MediaOptions()
        let now = timeline.elapsedMilliseconds
        participant.observed.withLock { $0.inviteAtMs = now }
        do {
            let callId = options.firstAnswer
                ? try await participant.agent.call(to: callee.split(separator: ",").map(String.init), mode: .firstAnswer, media: media,
                                                   attachedData: options.attachedData, timeout: options.ringTimeout)
                : try await participant.agent.call(to: callee, media: media, attachedData: options.attachedData,
                                                   timeout: options.ringTimeout)
            timeline.log("call", "\(participant.name) invites \(callee): call \(callId), media \(media)",
                         fields: ["callId": .string(callId), "to": .string(callee)])
        } catch {
            steps.fail("invite", "\(error)")
            return false
        }
        steps.pass("invite", "invited \(callee) with \(media)")
        if let cancelAfter = options.cancelAfter {
            return await cancelUnanswered(participant, after: cancelAfter)
        }
        // Ring time plus the call core's connect timeout (20 s) bound this.
        return await waitForInProgress(participant, seconds: options.ringTimeout.seconds + 25)
    }

    /// Waits for an incoming call (the watcher accepts it); true once the call is IN_PROGRESS.
    private mutating func awaitCall(_ participant: CallParticipant) async -> Bool {
        let seconds = options.wait.seconds
        timeline.log("call", "\(participant.name) waiting for a call (up to \(Int(seconds)) s)")
        _ = await waitFor(seconds: seconds) { participant.snapshot.incomingFrom != nil || StopRequest.requested }
        guard participant.snapshot.incomingFrom != nil else {
            steps.fail("incoming", StopRequest.requested ? "stopped by a signal before a call came" : "no call came within \(Int(seconds)) s")
            return false
        }
        let observed = participant.snapshot
        if let reason = options.reject {
            steps.pass("incoming", "call from \(observed.incomingFrom ?? "?")")
            await rejectIncoming(participant, reason: reason)
            return false
        }
        let media = options.media ?? observed.incomingMedia ?? MediaOptions()
        if let delay = options.answerDelay {
            _ = await waitFor(seconds: delay.seconds) { participant.snapshot.callStates.last == "ENDED" || StopRequest.requested }
            if participant.snapshot.callStates.last == "ENDED" {
                // Rang out, cancelled or answered elsewhere before the delay: the summary's
                // endReason says which, for the rig to check.
                steps.pass("incoming", "call from \(observed.incomingFrom ?? "?"); it ended while ringing: \(participant.snapshot.endReason ?? "?")")
                return false
            }
            if !StopRequest.requested {
                timeline.log("call", "\(participant.name) accepts after ringing \(delay.seconds) s")
                do { try await participant.agent.accept(media: media) } catch {
                    steps.fail("incoming", "could not accept after \(delay.seconds) s: \(error)")
                    return false
                }
            }
        }
        steps.pass("incoming", "call from \(observed.incomingFrom ?? "?"), accepted with \(media)")
        return await waitForInProgress(participant, seconds: 30)
    }

    /// `--reject`: refuses the incoming call; passes when it ENDED `rejected`.
    private mutating func rejectIncoming(_ participant: CallParticipant, reason: RejectReason) async {
        do { try await participant.agent.reject(reason: reason) } catch {
            steps.fail("reject", "could not reject: \(error)")
            return
        }
        _ = await waitFor(seconds: 10) { participant.snapshot.callStates.last == "ENDED" }
        let observed = participant.snapshot
        let ended = observed.callStates.last == "ENDED"
        let expected = reason == .busy ? "busy" : "rejected"
        steps.check("reject", ended && observed.endReason == expected, passed: "rejected (\(reason)): ENDED (\(expected))",
                    failed: ended ? "ENDED (\(observed.endReason ?? "?")), expected \(expected)" : "not ENDED after the reject")
    }

    /// `--cancel-after`: cancels the invite if still unanswered; passes when it ENDED `cancelled`.
    private mutating func cancelUnanswered(_ participant: CallParticipant, after delay: Duration) async -> Bool {
        _ = await waitFor(seconds: delay.seconds) {
            let states = participant.snapshot.callStates
            return states.contains("CONNECTING") || states.last == "ENDED" || StopRequest.requested
        }
        let states = participant.snapshot.callStates
        guard !states.contains("CONNECTING"), states.last != "ENDED" else {
            steps.fail("cancel", "the call was " + (states.last == "ENDED" ? "over" : "answered") + " before the cancel (\(states))")
            return false
        }
        timeline.log("call", "\(participant.name) cancels the unanswered call after \(delay.seconds) s")
        do { try await participant.agent.cancel() } catch {
            steps.fail("cancel", "could not cancel: \(error)")
            return false
        }
        _ = await waitFor(seconds: 10) { participant.snapshot.callStates.last == "ENDED" }
        let observed = participant.snapshot
        steps.check("cancel", observed.callStates.last == "ENDED" && observed.endReason == "cancelled",
                    passed: "cancelled while ringing: ENDED (cancelled)",
                    failed: "after the cancel: \(observed.callStates.last ?? "NO_CALL") (\(observed.endReason ?? "-"))")
        return false
    }

    private mutating func waitForInProgress(_ participant: CallParticipant, seconds: Double) async -> Bool {
        _ = await waitFor(seconds: seconds) {
            let states = participant.snapshot.callStates
            return states.contains("IN_PROGRESS") || states.last == "ENDED" || StopRequest.requested
        }
        let observed = participant.snapshot
        guard observed.callStates.contains("IN_PROGRESS") else {
            let why = observed.callStates.last == "ENDED" ? "the call ended before IN_PROGRESS (\(observed.endReason ?? "?"))"
                : "no IN_PROGRESS within \(Int(seconds)) s (state \(observed.callStates.last ?? "NO_CALL"))"
            steps.fail("connect", why + (observed.problems.first.map { "; \($0)" } ?? ""))
            return false
        }
        steps.pass("connect", "IN_PROGRESS" + (setupMs(observed).map { String(format: " %.1f ms after the invite", $0) } ?? ""))
        timeline.logTransport(of: participant)
        return true
    }

    private func setupMs(_ observed: CallParticipant.Observed) -> Double? {
        guard let up = observed.inProgressAtMs, let start = isCaller ? observed.inviteAtMs : observed.incomingAtMs else { return nil }
        return up - start
    }

    /// Media, stats lines and the echo run while the call is up; returns the figures read while up.
    private mutating func runCall(_ participant: CallParticipant, channels: PeerDataChannels, echoRun: EchoRun?) async -> CallSummary {
        let pump = MediaPump(for: participant, videoSize: options.videoSize, grain: options.videoGrain)
        defer { pump.stop() }
        let statsTask = StatsLine.everySecond(receiver: participant, sender: participant, timeline: timeline, into: samples,
                                              length: options.duration)
        defer { statsTask.finish() }
        let dumpTask = options.statsInterval.map { StatsDump.every($0, participants: [participant], timeline: timeline) }
        defer { dumpTask?.cancel() }

        let clock = ContinuousClock()
        let start = clock.now
        var facts = CallSummary.PeerFacts(user: participant.name, role: isCaller ? "caller" : "answerer")
        if !options.sendMessage.isEmpty {
            // The call core refuses envelopes until `manage-call` is open (it may open after IN_PROGRESS).
            _ = await waitFor(seconds: 10) { participant.snapshot.manageChannelOpen || participant.snapshot.callStates.last == "ENDED" }
            do {
                try await participant.agent.sendMessage(eventData: options.sendMessage)
                steps.pass("manage-call", "sendMessage sent with \(options.sendMessage.count) data items")
            } catch {
                steps.fail("manage-call", "sendMessage failed: \(error)")
            }
        }
        if let echoRun {
            // The caller opened `tern-data` with its offer; the answerer opens it now (DCEP, no renegotiation).
            if !isCaller, let peer = participant.snapshot.peer { channels.openOwnChannel(on: peer) }
            if let channel = await channels.ownChannelOpen(seconds: 10) {
                let result = await echoRun.run(on: channel, timeline: timeline, remoteMaxMessageSize: remoteMaxMessageSize(participant))
                facts.echo = result
                steps.check("echo", result.passed(expected: echoRun.count, ordered: echoRun.ordered, reliable: echoRun.reliable),
                            passed: result.text, failed: result.text)
            } else {
                steps.fail("echo", "data channel '\(PeerDataChannels.ownLabel)' did not open within 10 s")
            }
        }
        // The caller talks for --duration (default 5 s; with an echo run and no media, just the
        // run); the answerer until the caller hangs up, or for its own --duration.
        let media = options.media ?? MediaOptions()
        let echoOnly = echoRun != nil && !media.audio && !media.video
        let duration: Duration? = isCaller ? (options.duration ?? (echoOnly ? nil : .seconds(5))) : options.duration
        var latest = CallSummary(steps: steps, setupMs: nil, local: participant, facts: facts)
        var videoRequested = false, iceRestarted = false
        while participant.snapshot.callStates.last != "ENDED" {
            if let after = options.requestVideoAfter, !videoRequested, clock.now >= start + after {
                videoRequested = true
                if await requestVideo(participant), await checkAddedVideo(participant) { await removeAddedVideo(participant) }
            }
            if let after = options.restartIceAfter, !iceRestarted, clock.now >= start + after {
                iceRestarted = true
                await restartICE(participant)
            }
            if let duration, clock.now >= start + duration { break }
            if duration == nil, isCaller { break }
            if StopRequest.requested {
                timeline.log("tern", "stop requested by a signal: hanging up")
                break
            }
            try? await Task.sleep(for: .milliseconds(200))
            latest = latest.merged(withLater: CallSummary(steps: steps, setupMs: nil, local: participant, facts: facts))
        }
        checkMedia(participant, latest)
        return latest
    }

    /// The remote's `a=max-message-size` (RFC 8841 §6: 64 KiB when absent).
    private func remoteMaxMessageSize(_ participant: CallParticipant) -> Int? {
        let observed = participant.snapshot
        guard let sdp = isCaller ? observed.answer : observed.offer,
              let description = try? SessionDescription(parsing: sdp) else { return nil }
        // RFC 8841 §6.1: no a=max-message-size means 64 KiB, 0 means no limit.
        let advertised = description.media.first { $0.sctpPort != nil }?.maxMessageSize ?? 65_536
        // The echo comes back as large as it went, so it must fit what we advertise too (Firefox
        // advertises 1 GiB).
        let ours = options.peerConfiguration.maxMessageSize
        return advertised == 0 ? ours : Int(clamping: min(advertised, UInt64(ours)))
    }

    /// With audio asked for, some audio must arrive and carry a tone; with video, frames must decode.
    private mutating func checkMedia(_ participant: CallParticipant, _ figures: CallSummary) {
        let observed = participant.snapshot
        let media = options.media ?? observed.incomingMedia ?? MediaOptions()
        if media.audio {
            let tone = figures.detectedToneHz.map { "\(Int($0)) Hz" } ?? "no tone"
            let expected = options.expectedToneHz
            let toneMatches = figures.detectedToneHz.map { heard in expected.map { abs(heard - $0) <= 0.02 * $0 } ?? true } ?? false
            let wanted = expected.map { ", expected \(Int($0)) Hz ± 2 %" } ?? ""
            steps.check("audio", figures.audioPacketsReceived > 0 && toneMatches,
                        passed: "received \(figures.audioPacketsReceived) audio packets, tone \(tone)\(wanted)",
                        failed: "received \(figures.audioPacketsReceived) audio packets, \(tone)\(wanted)")
        }
        if media.video {
            steps.check("video", figures.videoFramesDecoded > 0, passed: "decoded \(figures.videoFramesDecoded) video frames",
                        failed: "no video frame decoded")
        }
    }

    /// Hangs up unless the other side already did; a call that was up must end normally.
    private mutating func hangUp(_ participant: CallParticipant, wasConnected: Bool) async {
        let agent = participant.agent
        if participant.snapshot.callStates.last != "ENDED", await agent.isOnCall {
            do { try await agent.hangUp() } catch {
                timeline.log("error", "\(participant.name) could not hang up: \(error)")
            }
            _ = await waitFor(seconds: 10) { participant.snapshot.callStates.last == "ENDED" }
        }
        guard wasConnected else { return }
        let observed = participant.snapshot
        let reason = observed.endReason ?? "?"
        steps.check("hang-up", observed.callStates.last == "ENDED" && ["localHangUp", "remoteHangUp"].contains(reason),
                    passed: "ENDED (\(reason))", failed: observed.callStates.last == "ENDED" ? "ENDED abnormally (\(reason))" : "not ENDED")
    }
}

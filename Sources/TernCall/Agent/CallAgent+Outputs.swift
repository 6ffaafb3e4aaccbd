import TernCore
import TernPeer
import TernSCTP
import TernSDP
import TernSignaling

/// Carrying out what the call core asks for.
extension CallAgent {
    /// Carries out outputs strictly in the order the core produced them, and returns once they
    /// are carried out. The agent is an actor, so while one output awaits (a signaling send),
    /// another input can run and produce outputs of its own; those are queued behind the ones
    /// still being carried out instead of overtaking them (otherwise a later state can be reported
    /// before an earlier one — `CONNECTING` before `RINGING`, or `CONNECTING` after `ENDED` — and
    /// the application follows a call that is over). That input's task then waits for the queue
    /// to drain: the signaling loop must not read the next message before the outputs of this one
    /// exist — a group member's `members` opens the leg that its offer, the next message, is
    /// applied to (Docs/CALL.md "Group calls"). An output that produces outputs while it is
    /// carried out hands them to `carryOutNext` instead (waiting here would wait for itself).
    func process(_ outputs: [CallOutput]) async {
        pendingOutputs.append(contentsOf: outputs)
        guard !drainingOutputs else {
            await withCheckedContinuation { drainWaiters.append($0) }
            return
        }
        drainingOutputs = true
        while !pendingOutputs.isEmpty {
            let output = pendingOutputs.removeFirst()
            await carryOut(output)
        }
        drainingOutputs = false
        let waiters = drainWaiters
        drainWaiters = []
        for waiter in waiters { waiter.resume() }
        rescheduleTimer()
    }

    /// Outputs the core produced while an output is being carried out (`connectSignaling`): they
    /// go next, in the drain already running.
    func carryOutNext(_ outputs: [CallOutput]) {
        pendingOutputs.append(contentsOf: outputs)
    }

    private func carryOut(_ output: CallOutput) async {
        switch output {
        case let .send(signal):
            await send(signal)
        case let .sendQueue(signal):
            await send(signal)
        case let .sendManageCall(callId, bytes):
            sendManageCall(callId: callId, text: String(decoding: bytes, as: UTF8.self))
        case let .action(action):
            await perform(action)
        default:
            continuation.yield(.call(output))
            switch output {
            case let .incomingCall(invite, txCode): incomingCallsContinuation.yield((invite, txCode))
            case let .stateChanged(change): callStatesContinuation.yield(change)
            case let .membersChanged(callId, txCode, members):
                callMemberStatesContinuation.yield(CallMemberUpdate(callId: callId, txCode: txCode, members: members))
            case let .clientStateChanged(state): clientStatesContinuation.yield(state)
            default: break
            }
        }
    }

    func send(_ message: SignalingMessage) async {
        // A group call's leg speaks for its pair: the group's call id, addressed to the member.
        var message = message
        switch message {
        case let .description(key, description, _, _):
            if let leg = GroupCallLeg(key: key) { message = .description(callId: leg.callId, description: description, to: leg.member) }
        case let .candidate(key, candidate, _, _):
            if let leg = GroupCallLeg(key: key) { message = .candidate(callId: leg.callId, candidate: candidate, to: leg.member) }
        default: break
        }
        // A signaling client whose own rules are on (`SignalingClientOptions.autoAcceptAssignedCalls`)
        // has already accepted a queue agent's call; the server would refuse a second `accept`.
        if case let .accept(callId, _) = message, let signaling, await signaling.activeCalls.contains(callId) { return }
        if let callId = message.callId, core.isAwaitingResume(callId: callId) {
            // The server takes these only from the connection that resumed the call.
            guard heldSignals.count < Self.maxHeldSignals else {
                continuation.yield(.problem(callId: callId, "\(Self.maxHeldSignals) signaling messages wait for the resume: \(message.type) dropped"))
                return
            }
            heldSignals.append(message)
            return
        }
        guard let signaling else {
            continuation.yield(.problem(callId: message.callId, "signaling not connected: \(message.type) not sent"))
            return
        }
        do { try await signaling.send(message) } catch {
            continuation.yield(.problem(callId: message.callId, "signaling send failed: \(error)"))
        }
    }

    /// Sends what waited for the server's `resumed`, in order, for the calls it took over.
    func flushHeldSignals(resumed: Set<String>) async {
        let ready = heldSignals.filter { $0.callId.map(resumed.contains) ?? false }
        heldSignals.removeAll { $0.callId.map(resumed.contains) ?? false }
        for message in ready { await send(message) }
    }

    private func sendManageCall(callId: String, text: String) {
        guard var call = calls[callId] else { return }
        if let channel = call.manageChannel, channel.readyState == .open {
            do { try channel.send(text) } catch {
                continuation.yield(.problem(callId: callId, "manage-call send failed: \(error)"))
            }
        } else {
            call.queuedEnvelopes.append(text)
            calls[callId] = call
        }
    }

    private func perform(_ action: CallAction) async {
        switch action {
        case .connectSignaling:
            await connectSignaling()
        case .disconnectSignaling:
            let client = signaling
            signaling = nil
            await client?.close()
        case let .createOffer(callId, media):
            guard createPeer(callId: callId, media: media, isCaller: true) else { return }
            if let peer = calls[callId]?.peer {
                do {
                    let channel = try peer.createDataChannel("manage-call")
                    attachManageChannel(channel, callId: callId)
                } catch {
                    continuation.yield(.problem(callId: callId, "cannot open manage-call: \(error)"))
                }
            }
            await makeOffer(callId: callId)
        case let .awaitOffer(callId, media):
            _ = createPeer(callId: callId, media: media, isCaller: false)
        case let .restartICE(callId):
            calls[callId]?.peer.restartICE()
            await makeOffer(callId: callId, iceRestart: true)
        case let .pauseCamera(callId):
            calls[callId]?.video?.sender.isEnabled = false
        case let .resumeCamera(callId):
            calls[callId]?.video?.sender.isEnabled = true
        case let .setCameraTrackEnabled(callId, enabled):
            calls[callId]?.video?.sender.isEnabled = enabled
        case let .renegotiate(callId, video):
            setVideoDirection(callId: callId, mode: video)
            calls[callId]?.videoRenegotiationPending = true
            await makeOffer(callId: callId)
        case let .prepareVideo(callId, video):
            setVideoDirection(callId: callId, mode: video)
            calls[callId]?.videoRenegotiationPending = true
        case let .hold(callId):
            setDirections(callId: callId, .inactive)
            await makeOffer(callId: callId)
        case let .unhold(callId):
            setDirections(callId: callId, .sendrecv)
            await makeOffer(callId: callId)
        case let .closePeer(callId):
            calls.removeValue(forKey: callId)?.close()
        }
    }

    /// Creates the call's peer connection with an audio and/or video transceiver.
    private func createPeer(callId: String, media: MediaOptions, isCaller: Bool) -> Bool {
        guard calls[callId] == nil else { return true }
        do {
            let peer = try PeerConnection(configuration: peerConfiguration)
            var call = ActiveCall(peer: peer, isCaller: isCaller)
            if media.audio { call.audio = try peer.addTransceiver(.audio, direction: .sendrecv) }
            if media.video { call.video = try peer.addTransceiver(.video, direction: .sendrecv) }
            let events = peer.events
            call.tasks.append(Task { [weak self] in
                for await event in events {
                    guard let self else { return }
                    await self.handle(peer: event, callId: callId)
                }
            })
            calls[callId] = call
            continuation.yield(.peerCreated(callId: callId, peer))
            return true
        } catch {
            continuation.yield(.problem(callId: callId, "cannot create the peer connection: \(error)"))
            Task { await self.transportFailed(callId: callId) }
            return false
        }
    }

    private func transportFailed(callId: String) async {
        await process(core.transportChanged(callId: callId, .failed, now: clock.now()))
    }

    func attachManageChannel(_ channel: DataChannel, callId: String) {
        guard var call = calls[callId] else { return }
        call.manageChannel = channel
        let events = channel.events
        call.tasks.append(Task { [weak self] in
            for await event in events {
                guard let self else { return }
                await self.handle(manageChannel: event, callId: callId)
            }
        })
        calls[callId] = call
    }

    private func handle(manageChannel event: DataChannel.Event, callId: String) async {
        switch event {
        case .open:
            guard var call = calls[callId] else { return }
            let queued = call.queuedEnvelopes
            call.queuedEnvelopes = []
            calls[callId] = call
            for text in queued { try? call.manageChannel?.send(text) }
            continuation.yield(.manageChannelOpen(callId: callId))
        case let .message(message):
            let bytes: [UInt8] = switch message {
            case let .string(text): Array(text.utf8)
            case let .binary(bytes): bytes
            }
            await process(core.receiveManageCall(callId: callId, bytes: bytes, now: clock.now()))
        case .bufferedAmountLow, .closed:
            break
        }
    }

    /// Maps a video mode onto the call's video transceiver (adding one if there is none).
    private func setVideoDirection(callId: String, mode: VideoMode) {
        guard var call = calls[callId] else { return }
        let direction: RTPDirection = switch mode {
        case .sendReceive: .sendrecv
        case .sendOnly: .sendonly
        case .receiveOnly: .recvonly
        case .disabled: .inactive
        }
        do {
            if let video = call.video {
                try video.setDirection(direction)
            } else if mode != .disabled {
                call.video = try call.peer.addTransceiver(.video, direction: direction)
            }
        } catch {
            continuation.yield(.problem(callId: callId, "cannot change video to \(mode): \(error)"))
        }
        calls[callId] = call
    }

    private func setDirections(callId: String, _ direction: RTPDirection) {
        guard let call = calls[callId] else { return }
        for transceiver in [call.audio, call.video].compactMap({ $0 }) {
            try? transceiver.setDirection(direction)
        }
    }

    /// Marks our description as sent and sends the candidates that waited for it.
    func flushCandidates(callId: String) async {
        guard var call = calls[callId] else { return }
        call.descriptionSent = true
        let pending = call.pendingCandidates
        call.pendingCandidates = []
        calls[callId] = call
        for candidate in pending { await send(.candidate(callId: callId, candidate: candidate)) }
    }

    /// createOffer → setLocalDescription → send (RFC 9429 §5.2).
    func makeOffer(callId: String, iceRestart: Bool = false) async {
        guard let peer = calls[callId]?.peer else { return }
        holdCandidates(callId: callId)
        do {
            let offer = try await peer.createOffer(iceRestart: iceRestart)
            try await peer.setLocalDescription(offer)
            continuation.yield(.description(callId: callId, local: true, type: "offer", sdp: offer.sdp))
            await send(.description(callId: callId, description: SignalingSessionDescription(type: .offer, sdp: offer.sdp)))
            await flushCandidates(callId: callId)
        } catch {
            continuation.yield(.problem(callId: callId, "offer failed: \(error)"))
            await flushCandidates(callId: callId)
        }
    }

    /// Candidates wait until the next description of ours is sent. Applying a description that
    /// restarts ICE emits the new generation's candidates at once, while this actor is suspended
    /// in `setLocalDescription`: sent then, they reach the peer before the re-offer, which
    /// refuses a candidate whose ufrag matches no applied description (W3C `addIceCandidate`),
    /// and the new pair is never selected.
    func holdCandidates(callId: String) {
        calls[callId]?.descriptionSent = false
    }
}

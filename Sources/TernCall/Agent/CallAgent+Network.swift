import TernCore
import TernPeer
import TernSDP
import TernSignaling

/// What the network reports: signaling messages and peer connection events.
extension CallAgent {
    func receive(_ message: SignalingMessage) async {
        if message.isCallLifecycle {
            await process(core.receive(message, now: clock.now()))
            return
        }
        switch message {
        case .callStatus:
            await process(core.receive(message, now: clock.now()))
            return
        case let .resumed(calls):
            await process(core.receive(message, now: clock.now()))
            await flushHeldSignals(resumed: Set(calls.map(\.callId)))
            return
        case let .error(error) where error.code == .callGone:
            continuation.yield(.problem(callId: error.callId, "signaling server: \(error)"))
            heldSignals.removeAll { $0.callId == error.callId }
            await process(core.receive(message, now: clock.now()))
            return
        default:
            break
        }
        if await receiveQueueMessage(message) { return }
        switch message {
        case let .description(id, description, from, _):
            await apply(description, callId: from.map { GroupCallLeg(callId: id, member: $0).key } ?? id)
        case let .candidate(id, candidate, from, _):
            let callId = from.map { GroupCallLeg(callId: id, member: $0).key } ?? id
            guard let peer = calls[callId]?.peer else { return }
            let candidateInit = candidate.map {
                ICECandidateInit(candidate: $0.candidate, sdpMid: $0.sdpMid, sdpMLineIndex: $0.sdpMLineIndex,
                                 usernameFragment: $0.usernameFragment)
            }
            do { try await peer.addICECandidate(candidateInit) } catch {
                continuation.yield(.problem(callId: callId, "remote candidate refused: \(error)"))
            }
        case let .error(error):
            continuation.yield(.problem(callId: error.callId, "signaling server: \(error)"))
        default:
            break
        }
    }

    /// Applies a remote description; answers an offer (RFC 9429 §5.3).
    private func apply(_ description: SignalingSessionDescription, callId: String) async {
        guard let peer = calls[callId]?.peer else {
            continuation.yield(.problem(callId: callId, "\(description.type.rawValue) for a call with no peer connection: dropped"))
            return
        }
        guard let sdp = description.sdp, let type = SDPType(rawValue: description.type.rawValue) else { return }
        do {
            try await peer.setRemoteDescription(JSEPDescription(type: type, sdp: sdp))
            continuation.yield(.description(callId: callId, local: false, type: type.rawValue, sdp: sdp))
            if type == .offer {
                holdCandidates(callId: callId)  // an answer that restarts ICE goes before its candidates
                let answer = try await peer.createAnswer()
                try await peer.setLocalDescription(answer)
                continuation.yield(.description(callId: callId, local: true, type: "answer", sdp: answer.sdp))
                await send(.description(callId: callId, description: SignalingSessionDescription(type: .answer, sdp: answer.sdp)))
                await flushCandidates(callId: callId)
            }
            if type == .offer || type == .answer, calls[callId]?.videoRenegotiationPending == true {
                calls[callId]?.videoRenegotiationPending = false
                await process(core.videoRenegotiated(callId: callId, now: clock.now()))
            }
        } catch {
            continuation.yield(.problem(callId: callId, "\(type.rawValue) refused: \(error)"))
            await flushCandidates(callId: callId)
        }
    }

    func handle(peer event: PeerConnectionEvent, callId: String) async {
        switch event {
        case let .iceCandidate(candidate):
            let wire = candidate.map {
                SignalingICECandidate(candidate: $0.candidate, sdpMid: $0.sdpMid, sdpMLineIndex: $0.sdpMLineIndex,
                                      usernameFragment: $0.usernameFragment)
            }
            guard var call = calls[callId] else { return }
            guard call.descriptionSent else {
                call.pendingCandidates.append(wire)
                calls[callId] = call
                return
            }
            await send(.candidate(callId: callId, candidate: wire))
        case let .connectionStateChanged(state):
            let transport: CallTransportEvent? = switch state {
            case .connected: .connected
            case .disconnected: .disconnected
            case .failed: .failed
            default: nil
            }
            if let transport { await process(core.transportChanged(callId: callId, transport, now: clock.now())) }
        case let .dataChannel(channel):
            // The caller opens `manage-call`; its `.open` event is still queued on the channel.
            // Any other channel belongs to the application.
            if channel.label == "manage-call" {
                attachManageChannel(channel, callId: callId)
            } else {
                continuation.yield(.dataChannel(callId: callId, channel))
            }
        case let .track(track):
            continuation.yield(.remoteTrack(callId: callId, track))
        case let .dtlsFailed(reason):
            continuation.yield(.problem(callId: callId, "DTLS failed: \(reason)"))
        default:
            break
        }
    }
}

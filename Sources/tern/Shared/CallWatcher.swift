import TernSignaling
import TernCall
import TernCore
import TernPeer

/// Follows one participant's call-agent events (shared by `tern call` and `tern peer`): logs them
/// on the timeline, records them in the participant, starts consuming remote tracks, answers an
/// incoming call when told how, and accepts video requests both ways.
struct CallWatcher: Sendable {
    let participant: CallParticipant
    let timeline: Timeline
    /// The media to accept an incoming call with; nil (or a nil result): the call is not answered here.
    var answer: (@Sendable (Invite) -> MediaOptions?)?
    /// The txCode to accept with (nil keeps the invite's).
    var txCode: String?
    var capture: CallCapture?
    /// Called when the call's peer connection exists (before the offer or answer is applied).
    var onPeerCreated: (@Sendable (String, PeerConnection) -> Void)?
    /// Called for every data channel the remote side opens (other than `manage-call`).
    var onDataChannel: (@Sendable (String, DataChannel) -> Void)?

    init(participant: CallParticipant, timeline: Timeline) {
        self.participant = participant
        self.timeline = timeline
    }

    /// Starts following; the task ends when the agent stops.
    func start() -> Task<Void, Never> {
        Task { for await event in participant.agent.events { await handle(event) } }
    }

    private func handle(_ event: CallAgentEvent) async {
        let name = participant.name
        switch event {
        case let .call(output):
            await handle(output)
        case let .peerCreated(callId, peer):
            capture?.attach(peer)
            participant.observed.withLock {
                $0.peer = peer
                $0.callId = callId
            }
            timeline.log("pc", "\(name): peer connection created")
            onPeerCreated?(callId, peer)
        case let .remoteTrack(_, track):
            timeline.log("media", "\(name): remote \(track.info.kind.rawValue) track "
                + "(ssrc \(track.info.ssrc), \(track.info.codecName)/\(track.info.clockRate), mid \(track.info.mid))")
            participant.observed.withLock { $0.tracks.append(track) }
            Task { await participant.consume(track) }
        case let .manageChannelOpen(callId):
            participant.observed.withLock { $0.manageChannelOpen = true }
            timeline.log("dc", "\(name): data channel 'manage-call' open (call \(callId))")
        case let .dataChannel(callId, channel):
            timeline.log("dc", "\(name): remote opened data channel '\(channel.label)' (call \(callId))",
                         fields: ["who": .string(name), "label": .string(channel.label)])
            onDataChannel?(callId, channel)
        case let .description(_, local, type, sdp):
            participant.observed.withLock { observed in
                if type == "offer", observed.offer == nil { observed.offer = sdp }
                if type == "answer", observed.answer == nil { observed.answer = sdp }
            }
            if local {
                // Printed and logged: our own ICE password is left out (the call's report does the same).
                timeline.block("sdp", "\(name) sends \(type)", LogText.redactingICEPasswords(sdp),
                               fields: ["from": .string(name), "type": .string(type)])
            }
        case let .problem(_, text):
            participant.observed.withLock { $0.problems.append(text) }
            timeline.log("error", "\(name): \(text)")
        }
    }

    private func handle(_ output: CallOutput) async {
        let name = participant.name
        switch output {
        case let .stateChanged(change):
            let now = timeline.elapsedMilliseconds
            participant.observed.withLock { observed in
                observed.callStates.append(change.state.rawValue)
                if change.state == .inProgress, observed.inProgressAtMs == nil { observed.inProgressAtMs = now }
                if let reason = change.reason { observed.endReason = "\(reason)" }
                observed.callId = change.callId
            }
            let reason = change.reason.map { " (\($0))" } ?? ""
            var fields: [String: JSONValue] = ["who": .string(name), "state": .string(change.state.rawValue)]
            if let endReason = change.reason { fields["reason"] = .string("\(endReason)") }
            timeline.log("call", "\(name): \(change.state.rawValue)\(reason)  [call \(change.callId), txCode \(change.txCode)]",
                         fields: fields)
        case let .incomingCall(invite, _):
            let data = invite.attachedData.map { "\($0.dataName)=\($0.dataValue)" }.joined(separator: ", ")
            timeline.log("call", "\(name): incoming call from \(invite.from ?? "?") with attached data [\(data)]",
                         fields: ["who": .string(name), "from": .string(invite.from ?? ""), "callId": .string(invite.callId)])
            let now = timeline.elapsedMilliseconds
            participant.observed.withLock {
                $0.incomingFrom = invite.from
                $0.incomingMedia = invite.media
                $0.incomingAttachedData = invite.attachedData
                $0.incomingAtMs = now
            }
            if let media = answer?(invite) {
                participant.observed.withLock { $0.callId = invite.callId }
                do { try await participant.agent.accept(media: media, txCode: txCode) } catch {
                    timeline.log("error", "\(name) could not accept: \(error)")
                }
            }
        case let .connectionStatusChanged(_, _, status):
            timeline.log("call", "\(name): connection \(status)")
        case let .signalingStatusChanged(_, _, status):
            participant.observed.withLock { $0.signalingStatuses.append(status.rawValue) }
            timeline.log("call", "\(name): signaling \(status)")
        case let .manageCallEvent(_, _, event):
            participant.observed.withLock { $0.manageEvents.append(event) }
            let data = event.data.map { "\($0.dataName)=\($0.dataValue)" }.joined(separator: ", ")
            timeline.log("dc", "\(name) received \(event.type.rawValue) [\(data)]")
        case let .manageCallError(_, _, error):
            timeline.log("error", "\(name): manage-call: \(error)")
        case let .videoRequested(_, _, mode):
            participant.observed.withLock { $0.videoRequests.append(mode) }
            timeline.log("call", "\(name): video requested (\(mode.rawValue)); accepting")
            do { try await participant.agent.acceptVideo(mode: mode.mirrored) } catch {
                timeline.log("error", "\(name) could not accept video: \(error)")
            }
        case let .videoRequestAnswered(_, _, result):
            timeline.log("call", "\(name): video request \(result)")
        case let .videoChannelsUpdated(_, _, direction):
            participant.observed.withLock { $0.videoUpdates.append(direction) }
            timeline.log("call", "\(name): video channels updated: \(direction.rawValue)")
        case let .clientStateChanged(state):
            timeline.log("call", "\(name): call client \(state)")
        case let .rejectedBusy(invite):
            timeline.log("call", "\(name): rejected \(invite.callId) as busy")
        case let .queue(event):
            timeline.log("call", "\(name): \(event)")
        case let .membersChanged(_, _, members):
            participant.observed.withLock { $0.members = members }
            timeline.log("call", "\(name): members \(members.map(\.description).joined(separator: ", "))")
        case let .memberConnectionChanged(_, member, status):
            timeline.log("call", "\(name): leg to \(member) \(status)")
        case let .memberEvent(_, member, event):
            participant.observed.withLock { $0.memberMessages.append((member, event)) }
            let data = event.data.map { "\($0.dataName)=\($0.dataValue)" }.joined(separator: ", ")
            timeline.log("dc", "\(name) received \(event.type.rawValue) from \(member) [\(data)]")
        case let .invalidPushCall(callId, reason, detail):
            participant.observed.withLock { $0.invalidPushes.append(reason.rawValue) }
            timeline.log("call", "\(name): push for \(callId ?? "an untrusted call") not rung: \(reason) (\(detail))")
        case .send, .sendQueue, .sendManageCall, .action:
            break
        }
    }
}

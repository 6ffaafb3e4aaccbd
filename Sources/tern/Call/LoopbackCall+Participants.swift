import Foundation
import TernCall
import TernCore
import TernICE
import TernPeer
import TernSignaling

/// Making the two participants and watching what they report.
extension LoopbackCall {
    func makeParticipant(_ name: String, tone: Double, switchboard: SignalingSwitchboard,
                         tamper: SDPTamper?, capture: CallCapture?) async -> LoopbackParticipant? {
        var transport: any SignalingTransport = InMemorySignalingTransport(switchboard: switchboard)
        if let tamper { transport = TamperingSignalingTransport(wrapping: transport, tamper: tamper) }
        // The call core decides busy and accepts; the signaling client must not do it too.
        let client = SignalingClient(transport: transport,
                                     options: SignalingClientOptions(autoAcceptAssignedCalls: false, maxConcurrentCalls: nil))
        do { try await client.register(user: name, token: "") } catch {
            timeline.log("error", "\(name) could not register: \(error)")
            return nil
        }
        var configuration = PeerConfiguration.loopback
        configuration.packetTap = capture?.tap
        let agent = CallAgent(user: name, signaling: client, peerConfiguration: configuration)
        do { try await agent.start() } catch {
            timeline.log("error", "\(name) could not start its call client: \(error)")
            return nil
        }
        return LoopbackParticipant(name: name, agent: agent, toneHz: tone)
    }

    /// Follows one participant's events: logs them, records them, and — for the callee — rings
    /// and accepts, and answers video requests by accepting them both ways.
    func watch(_ participant: LoopbackParticipant, answering: Bool, capture: CallCapture?) -> Task<Void, Never> {
        let timeline = self.timeline
        return Task {
            for await event in participant.agent.events {
                switch event {
                case let .call(output):
                    await LoopbackCall.handle(output, of: participant, answering: answering, timeline: timeline)
                case let .peerCreated(callId, peer):
                    capture?.attach(peer)
                    participant.observed.withLock {
                        $0.peer = peer
                        $0.callId = callId
                    }
                    timeline.log("pc", "\(participant.name): peer connection created")
                case let .remoteTrack(_, track):
                    timeline.log("media", "\(participant.name): remote \(track.info.kind.rawValue) track "
                        + "(ssrc \(track.info.ssrc), \(track.info.codecName)/\(track.info.clockRate), mid \(track.info.mid))")
                    participant.observed.withLock { $0.tracks.append(track) }
                    Task { await participant.consume(track) }
                case let .manageChannelOpen(callId):
                    participant.observed.withLock { $0.manageChannelOpen = true }
                    timeline.log("dc", "\(participant.name): data channel 'manage-call' open (call \(callId))")
                case let .description(_, local, type, sdp):
                    participant.observed.withLock { observed in
                        if type == "offer", observed.offer == nil { observed.offer = sdp }
                        if type == "answer", observed.answer == nil { observed.answer = sdp }
                    }
                    if local {
                        timeline.block("sdp", "\(participant.name) sends \(type)", sdp,
                                       fields: ["from": .string(participant.name), "type": .string(type)])
                    }
                case let .problem(_, text):
                    participant.observed.withLock { $0.problems.append(text) }
                    timeline.log("error", "\(participant.name): \(text)")
                }
            }
        }
    }

    private static func handle(_ output: CallOutput, of participant: LoopbackParticipant, answering: Bool,
                               timeline: Timeline) async {
        let name = participant.name
        switch output {
        case let .stateChanged(change):
            participant.observed.withLock { observed in
                observed.callStates.append(change.state.rawValue)
                if let reason = change.reason { observed.endReason = "\(reason)" }
                observed.callId = change.callId
            }
            let reason = change.reason.map { " (\($0))" } ?? ""
            timeline.log("call", "\(name): \(change.state.rawValue)\(reason)  [call \(change.callId), txCode \(change.txCode)]",
                         fields: ["who": .string(name), "state": .string(change.state.rawValue)])
        case let .incomingCall(invite, _):
            let data = invite.attachedData.map { "\($0.name)=\($0.value)" }.joined(separator: ", ")
            timeline.log("call", "\(name): incoming call from \(invite.from) with attached data [\(data)]")
            if answering {
                participant.observed.withLock { $0.callId = invite.callId }
                do { try await participant.agent.accept(media: invite.media, txCode: "tx-1") } catch {
                    timeline.log("error", "\(name) could not accept: \(error)")
                }
            }
        case let .connectionStatusChanged(_, _, status):
            timeline.log("call", "\(name): connection \(status)")
        case let .manageCallEvent(_, _, event):
            participant.observed.withLock { $0.manageEvents.append(event) }
            let data = event.data.map { "\($0.name)=\($0.value)" }.joined(separator: ", ")
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
        case .send, .sendManageCall, .action:
            break
        }
    }

    /// Waits until `condition` holds, polling every 10 ms, for at most `seconds`.
    func waitFor(seconds: Double, _ condition: () -> Bool) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(Int(seconds * 1000))
        while clock.now < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    /// Names the step that failed when the call never reached IN_PROGRESS: the fingerprint
    /// check, the DTLS handshake, or the ICE checks of one side.
    func explainSetupFailure(_ alice: LoopbackParticipant, _ bob: LoopbackParticipant) -> String {
        let problems = alice.snapshot.problems + bob.snapshot.problems
        if let mismatch = problems.first(where: { $0.localizedCaseInsensitiveContains("fingerprint") }) {
            return "DTLS fingerprint check: \(mismatch)"
        }
        if let dtls = problems.first(where: { $0.contains("DTLS") }) {
            return "DTLS handshake: \(dtls)"
        }
        for participant in [alice, bob] {
            guard let peer = participant.snapshot.peer else { continue }
            switch peer.iceConnectionState {
            case .connected, .completed:
                continue
            case .failed:
                return "ICE connectivity checks failed at \(participant.name): no candidate pair answered (wrong ICE credentials or no route)"
            default:
                return "ICE connectivity checks did not complete at \(participant.name) within 15 s (state \(peer.iceConnectionState.rawValue)): "
                    + "its checks got no valid answer — the ICE password it was given does not match its peer's"
            }
        }
        let states = "alice \(alice.snapshot.callStates.last ?? "NO_CALL"), bob \(bob.snapshot.callStates.last ?? "NO_CALL")"
        return "no IN_PROGRESS within 15 s (\(states))" + (problems.first.map { "; \($0)" } ?? "")
    }

    /// Prints the transport facts once connected: ICE pair and DTLS parameters.
    func logTransport(of participant: LoopbackParticipant) {
        guard let peer = participant.snapshot.peer else { return }
        if let trace = peer.iceTrace {
            timeline.block("ice", "\(participant.name): ICE trace", trace.description)
        }
        if let pair = peer.selectedCandidatePair {
            timeline.log("ice", "selected pair: \(pair.local) <-> \(pair.remote)",
                         fields: ["local": .string(pair.local.type.rawValue), "remote": .string(pair.remote.type.rawValue)])
        }
        if let dtls = peer.dtlsConnectionInfo {
            timeline.log("dtls", "\(participant.name): \(dtls)")
        }
    }
}

import Foundation
import TernCall
import TernCore
import TernICE
import TernPeer
import TernSignaling

/// Making the two participants, watching what they report, explaining a failed setup.
extension LoopbackCall {
    func makeParticipant(_ name: String, tone: Double, switchboard: SignalingSwitchboard,
                         tamper: SDPTamper?, capture: CallCapture?) async -> CallParticipant? {
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
        configuration.ice.tracePairChecks = true // a debugging tool: every pair check in the ICE trace
        configuration.packetTap = capture?.tap
        let agent = CallAgent(user: name, signaling: client, peerConfiguration: configuration)
        do { try await agent.start() } catch {
            timeline.log("error", "\(name) could not start its call client: \(error)")
            return nil
        }
        return CallParticipant(name: name, agent: agent, toneHz: tone)
    }

    /// Follows one participant's events; the callee (bob) accepts with the invite's media.
    func watch(_ participant: CallParticipant, answering: Bool, capture: CallCapture?) -> Task<Void, Never> {
        var watcher = CallWatcher(participant: participant, timeline: timeline)
        watcher.capture = capture
        if answering {
            watcher.answer = { invite in invite.media }
            watcher.txCode = "tx-1"
        }
        return watcher.start()
    }

    /// Names the step that failed when the call never reached IN_PROGRESS: the fingerprint
    /// check, the DTLS handshake, or the ICE checks of one side.
    func explainSetupFailure(_ alice: CallParticipant, _ bob: CallParticipant) -> String {
        let problems = alice.snapshot.problems + bob.snapshot.problems
        if let mismatch = problems.first(where: { $0.localizedCaseInsensitiveContains("fingerprint") }) {
            return "DTLS fingerprint check: \(mismatch)"
        }
        // The side that found the mismatch may be torn down (the other side's failure ends the
        // call) before its own reason is reported; the alert it sent still names the cause.
        if let refused = problems.first(where: { $0.localizedCaseInsensitiveContains("bad certificate") }) {
            return "DTLS fingerprint check: the peer refused the certificate (a fingerprint mismatch sends bad_certificate): \(refused)"
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
}

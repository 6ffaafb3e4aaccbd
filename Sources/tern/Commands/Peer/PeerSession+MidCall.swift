import TernSignaling
import TernCall
import TernPeer

/// `--request-video-after` and `--restart-ice-after`: renegotiations this peer starts mid-call,
/// each checked by what then reaches it (interop: the other side answers them).
extension PeerSession {
    /// Asks for video both ways through the call facade (a `videoRequest` on manage-call, then
    /// this side's re-offer); true once both sides report the new video channels.
    mutating func requestVideo(_ participant: CallParticipant) async -> Bool {
        timeline.log("tern", "\(participant.name): asking for video both ways")
        do { try await participant.agent.setVideoMode(.sendReceive) } catch {
            steps.fail("video added", "setVideoMode(.sendReceive) refused: \(error)")
            return false
        }
        let updated = await waitFor(seconds: 20) {
            participant.snapshot.videoUpdates.contains(.sendReceive) || participant.snapshot.callStates.last == "ENDED"
        }
        guard updated, participant.snapshot.videoUpdates.contains(.sendReceive) else {
            steps.fail("video added", "no videoChannelsUpdated(sendrecv) within 20 s")
            return false
        }
        return true
    }

    /// Frames of the added video decode here within 10 s; true if they did.
    mutating func checkAddedVideo(_ participant: CallParticipant) async -> Bool {
        let decoded = { Self.videoFramesDecoded(participant) }
        let arrived = await waitFor(seconds: 10) { decoded() >= 30 }
        steps.check("video added", arrived, passed: "video added both ways by renegotiation; \(decoded()) frames decoded",
                    failed: "video added both ways, but only \(decoded()) frames decoded within 10 s")
        return arrived
    }

    /// Removes the video again (this side's re-offer with the video section inactive); passes
    /// when the call facade reports the video channels inactive and frames stop arriving.
    mutating func removeAddedVideo(_ participant: CallParticipant) async {
        _ = await waitFor(seconds: 2) { false }  // two more seconds of video both ways first
        timeline.log("tern", "\(participant.name): removing the video again")
        do { try await participant.agent.setVideoMode(.disabled) } catch {
            steps.fail("video removed", "setVideoMode(.disabled) refused: \(error)")
            return
        }
        let removed = await waitFor(seconds: 10) { participant.snapshot.videoUpdates.last == .disabled }
        guard removed else {
            steps.fail("video removed", "no videoChannelsUpdated(inactive) within 10 s (updates \(participant.snapshot.videoUpdates))")
            return
        }
        // Frames already on the wire may still decode; after a second nothing more may arrive.
        _ = await waitFor(seconds: 1) { false }
        let settled = Self.videoFramesDecoded(participant)
        _ = await waitFor(seconds: 2) { false }
        let after = Self.videoFramesDecoded(participant) - settled
        steps.check("video removed", after == 0, passed: "video removed by renegotiation (inactive); no frame decoded in the 2 s after",
                    failed: "video inactive, but \(after) frames still decoded in the 2 s after")
    }

    static func videoFramesDecoded(_ participant: CallParticipant) -> Int {
        participant.snapshot.tracks.filter { $0.info.kind == .video }.map(\.framesDecoded).reduce(0, +)
    }

    /// Restarts ICE from this side; passes when the answer carries new remote credentials, ICE
    /// is connected again and audio keeps arriving.
    mutating func restartICE(_ participant: CallParticipant) async {
        guard let peer = participant.snapshot.peer else {
            steps.fail("ice restart", "no peer connection")
            return
        }
        let before = (local: Self.ufrag(peer.localDescription?.sdp), remote: Self.ufrag(peer.remoteDescription?.sdp))
        timeline.log("tern", "\(participant.name): restarting ICE (local ufrag \(before.local ?? "-"))")
        do { try await participant.agent.restartICE() } catch {
            steps.fail("ice restart", "restartICE refused: \(error)")
            return
        }
        let restarted = await waitFor(seconds: 10) {
            let remote = Self.ufrag(peer.remoteDescription?.sdp)
            return remote != nil && remote != before.remote && peer.signalingState == .stable
                && (peer.iceConnectionState == .connected || peer.iceConnectionState == .completed)
        }
        let after = (local: Self.ufrag(peer.localDescription?.sdp), remote: Self.ufrag(peer.remoteDescription?.sdp))
        let ufrags = "ufrags local \(before.local ?? "-")→\(after.local ?? "-"), remote \(before.remote ?? "-")→\(after.remote ?? "-")"
        guard restarted else {
            steps.fail("ice restart", "\(ufrags); ICE \(peer.iceConnectionState.rawValue), signaling \(peer.signalingState.rawValue) after 10 s")
            return
        }
        let packets = { Int(peer.getStats().inbound(.audio)?.counters.packetsReceived ?? 0) }
        let start = packets()
        _ = await waitFor(seconds: 3) { false }
        let during = packets() - start
        let expectsAudio = (options.media ?? participant.snapshot.incomingMedia ?? MediaOptions()).audio
        steps.check("ice restart", !expectsAudio || during >= 50,
                    passed: "\(ufrags); ICE \(peer.iceConnectionState.rawValue); \(during) audio packets in the 3 s after",
                    failed: "\(ufrags); only \(during) audio packets in the 3 s after")
    }

    static func ufrag(_ sdp: String?) -> String? {
        sdp?.split(whereSeparator: \.isNewline).first { $0.hasPrefix("a=ice-ufrag:") }
            .map { String($0.dropFirst("a=ice-ufrag:".count)) }
    }
}

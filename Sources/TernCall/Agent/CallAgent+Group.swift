public import TernPeer
public import TernSignaling

/// Group calls on the agent: a full mesh, one peer connection and `manage-call` channel per pair
/// of members. The transport events of a pair (`peerCreated`, `remoteTrack`, `dataChannel`,
/// `manageChannelOpen`) carry the pair's `GroupCallLeg.key` as their call id.
extension CallAgent {
    /// Calls several users at once; returns the call id. `group`: everyone who accepts joins the
    /// call (states on `callMemberStates`); `firstAnswer`: everyone rings and the first to accept
    /// gets a one-to-one call.
    public func call(to users: [String], mode: InviteMode = .group, media: MediaOptions, attachedData: [AttachedData] = [],
                     timeout: Duration = .seconds(30), invitePolicy: InvitePolicy = .anyMember,
                     txCode: String = "") async throws(CallError) -> String {
        callCounter += 1
        let callId = "\(user)-\(clock.now().nanoseconds)-\(callCounter)"
        await process(try core.call(callId: callId, to: users, mode: mode, media: media, attachedData: attachedData,
                                    timeout: timeout, invitePolicy: invitePolicy, txCode: txCode, now: clock.now()))
        return callId
    }

    /// Invites more users into the running group call.
    public func inviteMore(_ users: [String], timeout: Duration = .seconds(30)) async throws(CallError) {
        await process(try core.inviteMore(users, timeout: timeout, now: clock.now()))
    }

    /// Cancels the invitations of users still ringing; the call goes on.
    public func cancelInvitations(for users: [String]) async throws(CallError) {
        await process(try core.cancelInvitations(for: users, now: clock.now()))
    }

    /// Leaves the group call; it goes on for the others.
    public func quit() async throws(CallError) {
        await process(try core.quit(now: clock.now()))
    }

    /// The caller ends the group call for everyone.
    public func endForEveryone() async throws(CallError) {
        await process(try core.endForEveryone(now: clock.now()))
    }

    /// Sends a `sendMessage` envelope to one member of the group call, or to every connected one.
    public func sendMessage(eventData: [AttachedData], to member: String?) async throws(CallError) {
        await process(try core.sendMessage(eventData: eventData, to: member, now: clock.now()))
    }

    /// The current group call, if any (also once ended, until the next call).
    public var groupCall: GroupCallSession? { core.currentGroup }

    /// The peer connection to `member` in group call `callId`.
    public func peer(callId: String, member: String) -> PeerConnection? {
        calls[GroupCallLeg(callId: callId, member: member).key]?.peer
    }

    /// The senders of the audio and video to `member` in group call `callId`.
    public func senders(callId: String, member: String) -> (audio: RTPSender?, video: RTPSender?) {
        senders(callId: GroupCallLeg(callId: callId, member: member).key)
    }
}

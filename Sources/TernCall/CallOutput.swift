public import TernSignaling
/// What a call-core input produced, in order. The driver performs `send`,
/// `sendManageCall` and `action`; the rest is for the application.
public enum CallOutput: Hashable, Sendable, CustomStringConvertible {
    /// Send this message on the signaling connection.
    case send(SignalingMessage)
    /// Send these bytes on the `manage-call` data channel of this call.
    case sendManageCall(callId: String, bytes: [UInt8])
    /// Send this queue message on the signaling connection.
    case sendQueue(CallQueueSignal)
    /// Driver work on the peer or signaling connection.
    case action(CallAction)
    /// The client state changed.
    case clientStateChanged(CallClientState)
    /// An invite arrived and rings (emitted just before its `RINGING` state change).
    case incomingCall(Invite, txCode: String)
    /// A call changed state; `reason` is set when `state` is `ENDED`.
    case stateChanged(CallStateChange)
    /// The transport health of an answered call changed.
    case connectionStatusChanged(callId: String, txCode: String, status: CallConnectionStatus)
    /// The signaling path of an active call changed: `reconnecting` from a lost connection until
    /// the server's `resumed` (`connected`), `failed` when the call could not be resumed.
    case signalingStatusChanged(callId: String, txCode: String, status: CallConnectionStatus)
    /// An in-call event from the other side (or `TURN_BACK_TO_VIDEO_CALL` from this app).
    case manageCallEvent(callId: String, txCode: String, event: ManageCallEvent)
    /// A received manage-call envelope was refused; the call goes on.
    case manageCallError(callId: String, txCode: String, error: ManageCallError)
    /// The other side asks for video in `mode` (seen from this side); answer with
    /// `acceptVideo(mode:)` or `denyVideo()` within `CallConfiguration.videoRequestTimeout`.
    case videoRequested(callId: String, txCode: String, mode: VideoMode)
    /// This side's video request was answered (or timed out).
    case videoRequestAnswered(callId: String, txCode: String, result: VideoRequestResult)
    /// The driver finished the renegotiation: video now runs in `direction` (seen from this side).
    case videoChannelsUpdated(callId: String, txCode: String, direction: VideoMode)
    /// An incoming invite was answered `busy` automatically (another call is active).
    case rejectedBusy(Invite)
    /// The queue flow moved on (positions, picks, assignments).
    case queue(CallQueueEvent)
    /// Group call: where every member stands, as the server reported it.
    case membersChanged(callId: String, txCode: String, members: [CallMember])
    /// Group call: the leg to `member` connected, or failed (or closed because the member left).
    case memberConnectionChanged(callId: String, member: String, status: CallConnectionStatus)
    /// Group call: an in-call event from `member` (a `sendMessage`).
    case memberEvent(callId: String, member: String, event: ManageCallEvent)
    /// A push did not announce a call that rings (`CallClient.handlePush`); `callId` is nil when
    /// the push's body is not trusted.
    case invalidPushCall(callId: String?, reason: InvalidPushReason, detail: String)

    public var description: String {
        switch self {
        case .send(let signal): "send \(signal)"
        case .sendQueue(let signal): "send \(signal)"
        case .sendManageCall(let id, let bytes): "sendManageCall \(id) \(bytes.count) bytes"
        case .action(let action): "action \(action)"
        case .clientStateChanged(let state): "client \(state)"
        case .incomingCall(let invite, let txCode): "incoming \(invite) tx \(txCode)"
        case .stateChanged(let change): "\(change)"
        case .connectionStatusChanged(let id, _, let status): "\(id) connection \(status)"
        case .signalingStatusChanged(let id, _, let status): "\(id) signaling \(status)"
        case .manageCallEvent(let id, _, let event): "\(id) event \(event)"
        case .manageCallError(let id, _, let error): "\(id) manage-call error: \(error)"
        case .videoRequested(let id, _, let mode): "\(id) video requested \(mode)"
        case .videoRequestAnswered(let id, _, let result): "\(id) video answer \(result)"
        case .videoChannelsUpdated(let id, _, let direction): "\(id) video \(direction)"
        case .rejectedBusy(let invite): "rejected busy \(invite.callId)"
        case .queue(let event): "\(event)"
        case .membersChanged(let id, _, let members): "\(id) members \(members.map(\.description).joined(separator: ", "))"
        case .memberConnectionChanged(let id, let member, let status): "\(id) leg \(member) \(status)"
        case .memberEvent(let id, let member, let event): "\(id) event from \(member) \(event)"
        case .invalidPushCall(let id, let reason, let detail): "invalid push \(id ?? "?"): \(reason) (\(detail))"
        }
    }
}

public import TernSignaling
public import TernCore

/// One call, from invite to `ENDED`: a pure state machine driven by `CallClient`.
///
/// Applications read it (`CallClient.currentCall`); every change it makes is also
/// reported as `CallOutput`s. Timers are deadlines on the `now` passed in:
/// ring time, `connectTimeout`, ICE-restart schedule, video-request timeout.
public struct CallSession: Sendable, CustomStringConvertible {
    /// Who started the call.
    public enum Role: String, Hashable, Sendable {
        /// This side sent the invite; it makes the offers and the ICE restarts and
        /// opens the `manage-call` data channel.
        case caller
        /// This side received the invite.
        case callee
    }

    /// The call id.
    public let callId: String
    /// The application's transaction code (callee: the invite's `txCode` item until `accept` sets one).
    public internal(set) var txCode: String
    /// Caller or callee.
    public let role: Role
    /// The invite as sent (caller) or received (callee).
    public let invite: Invite
    /// The media accepted by the callee (the invite's until `accept(media:)`).
    public internal(set) var media: MediaOptions
    /// The W3C-ish call state.
    public internal(set) var state: CallSessionState = .noCall
    /// Why the call ended, once `ENDED`.
    public internal(set) var endReason: CallEndReason?
    /// The transport health once answered (`nil` before `IN_PROGRESS`).
    public internal(set) var connectionStatus: CallConnectionStatus?
    /// The last in-call event received (`NO_EVENT` initially).
    public internal(set) var lastEvent: ManageCallEventType = .noEvent
    /// Whether a remote `START_OPERATION` paused the local camera.
    public internal(set) var isCameraPausedForOperation = false
    /// Whether the local camera track is enabled (`setCameraEnabled`).
    public internal(set) var isCameraEnabled = true
    /// Whether the call is on hold (every transceiver `inactive`).
    public internal(set) var isOnHold = false
    /// The video direction in effect, seen from this side.
    public internal(set) var videoMode: VideoMode

    /// The signaling connection was lost during the call and the server's `resumed` (or
    /// `callGone`) has not come yet; stays set if the call ends meanwhile, so the messages it
    /// sent while away (a hang-up) still reach the server once the call is taken over.
    public internal(set) var isAwaitingResume = false

    let configuration: CallConfiguration
    var resumeDeadline: Instant?
    var ringDeadline: Instant?
    var connectDeadline: Instant?
    var reconnect: ReconnectAttempt?
    var video = VideoNegotiation()

    /// Bookkeeping of ICE restarts while `reconnecting`.
    struct ReconnectAttempt {
        var deadline: Instant
        var restarts = 0
        var nextRestart: Instant?
    }

    init(role: Role, invite: Invite, txCode: String, configuration: CallConfiguration) {
        self.callId = invite.callId
        self.role = role
        self.invite = invite
        self.txCode = txCode
        self.media = invite.media
        self.configuration = configuration
        self.videoMode = invite.media.video ? .sendReceive : .disabled
    }

    /// Whether the call has not ended yet.
    public var isActive: Bool { state != .ended }

    /// Whether both sides agreed on the call (`CONNECTING` or `IN_PROGRESS`).
    public var isAnswered: Bool { state == .connecting || state == .inProgress }

    /// The user on the other side.
    public var remoteUser: String { role == .caller ? invite.callee : invite.from ?? "" }

    /// The earliest deadline of this call, if any.
    public var nextTimeout: Instant? {
        guard isActive else { return nil }
        return [resumeDeadline, ringDeadline, connectDeadline, reconnect?.deadline, reconnect?.nextRestart,
                video.local?.deadline, video.remote?.deadline].compactMap { $0 }.min()
    }

    public var description: String {
        "\(role) \(callId) [\(txCode)] \(state)" + (endReason.map { " (\($0))" } ?? "")
    }

    // MARK: - State changes

    mutating func enter(_ newState: CallSessionState, _ out: inout [CallOutput]) {
        state = newState
        out.append(.stateChanged(CallStateChange(callId: callId, txCode: txCode, state: newState)))
    }

    /// Ends the call: `ENDED(reason)`, the peer closed if it was created, every timer off.
    mutating func end(_ reason: CallEndReason, _ out: inout [CallOutput]) {
        guard isActive else { return }
        let hadPeer = isAnswered
        state = .ended
        endReason = reason
        ringDeadline = nil
        connectDeadline = nil
        resumeDeadline = nil
        reconnect = nil
        video = VideoNegotiation()
        if connectionStatus == .reconnecting, reason == .disconnected {
            connectionStatus = .failed
            out.append(.connectionStatusChanged(callId: callId, txCode: txCode, status: .failed))
        }
        out.append(.stateChanged(CallStateChange(callId: callId, txCode: txCode, state: .ended, reason: reason)))
        if hadPeer { out.append(.action(.closePeer(callId: callId))) }
    }

    /// Runs every timer that is due at `now`.
    mutating func handleTimeout(now: Instant, _ out: inout [CallOutput]) {
        guard isActive else { return }
        if let deadline = resumeDeadline, now >= deadline {
            signalingResumeFailed(&out)
            return
        }
        if let deadline = ringDeadline, now >= deadline, state == .noCall || state == .ringing {
            // Caller: give up and tell the server; callee: the server's timeout never came.
            if role == .caller { out.append(.send(.cancel(callId: callId))) }
            end(.noAnswer, &out)
            return
        }
        if let deadline = connectDeadline, now >= deadline, state == .connecting {
            out.append(.send(.hangup(callId: callId)))
            end(.connectFailed, &out)
            return
        }
        handleReconnectTimeout(now: now, &out)
        guard isActive else { return }
        handleVideoTimeout(now: now, &out)
    }
}

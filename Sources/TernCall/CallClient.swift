public import TernCore

/// The sans-I/O core of the call facade: the client's signaling-connection
/// lifecycle (`CallClientState`) and the active call (`CallSession`), one at a time.
///
/// Every input is a value with `now` passed in and returns `[CallOutput]`, in order.
/// The I/O driver performs `send`, `sendManageCall` and `action` outputs, calls
/// `handleTimeout(now:)` when `nextTimeout` passes, and reports what the signaling
/// connection and the peer connection do. Nothing here reads a clock or blocks.
public struct CallClient: Sendable {
    /// The timers and bounds in use.
    public let configuration: CallConfiguration
    /// The client state.
    public internal(set) var state: CallClientState = .stopped
    /// The current call, or the last one (then `ENDED`) until a new call replaces it.
    public internal(set) var currentCall: CallSession?
    /// The current group call, or the last one (then `ENDED`) until a new one replaces it.
    public internal(set) var currentGroup: GroupCallSession?
    /// This client's user id (group calls tell this member from the others by it).
    public var localUser = ""
    /// Calls announced by a push whose `callStatus` is not answered yet.
    public internal(set) var pendingPushChecks: [String] = []
    /// This client's queue requests (customer side): waiting, or picked and waiting for the
    /// agent's call, in the order they were enqueued.
    public internal(set) var queueRequests: [CallQueueRequest] = []
    /// Reconnect attempts made since the signaling connection was lost.
    public internal(set) var reconnectAttempts = 0
    var nextReconnect: Instant?

    /// Creates a stopped client.
    public init(configuration: CallConfiguration = CallConfiguration()) {
        self.configuration = configuration
    }

    /// Whether a call is active (not `ENDED`): incoming invites are then answered `busy`.
    public var isOnCall: Bool { (currentCall?.isActive ?? false) || (currentGroup?.isActive ?? false) }

    /// The earliest instant at which `handleTimeout(now:)` has work, if any.
    public var nextTimeout: Instant? {
        [nextReconnect, currentCall?.nextTimeout, currentGroup?.nextTimeout].compactMap { $0 }.min()
    }

    /// Runs every timer due at `now`: reconnect attempts and the call's timers.
    public mutating func handleTimeout(now: Instant) -> [CallOutput] {
        var out: [CallOutput] = []
        if state == .paused, let due = nextReconnect, now >= due {
            nextReconnect = nil
            reconnectAttempts += 1
            setState(.resuming, &out)
            out.append(.action(.connectSignaling))
        }
        currentCall?.handleTimeout(now: now, &out)
        currentGroup?.handleTimeout(now: now, &out)
        return out
    }

    mutating func setState(_ newState: CallClientState, _ out: inout [CallOutput]) {
        guard state != newState else { return }
        state = newState
        out.append(.clientStateChanged(newState))
    }

    /// Applies `body` to the active call named `callId` (any active call when `nil`).
    mutating func withCall(_ callId: String?, _ body: (inout CallSession, inout [CallOutput]) throws(CallError) -> Void)
        throws(CallError) -> [CallOutput] {
        guard var session = currentCall, session.isActive, callId == nil || callId == session.callId else {
            throw .noSuchCall(callId: callId)
        }
        var out: [CallOutput] = []
        try body(&session, &out)
        currentCall = session
        return out
    }

    /// Applies `body` to the call named `callId` if it is the current one; stale ids are ignored.
    mutating func ifCall(_ callId: String, _ body: (inout CallSession, inout [CallOutput]) -> Void) -> [CallOutput] {
        guard var session = currentCall, session.callId == callId else { return [] }
        var out: [CallOutput] = []
        body(&session, &out)
        currentCall = session
        return out
    }
}

/// The bounds and timers of the call core. Every duration is measured on the `now`
/// values the driver passes in.
public struct CallConfiguration: Hashable, Sendable {
    /// Longest time in `CONNECTING` before the call ends with `connectFailed`.
    public var connectTimeout: Duration = .seconds(20)
    /// Time between two ICE restarts while reconnecting.
    public var iceRestartInterval: Duration = .seconds(5)
    /// ICE restarts tried before giving up.
    public var maxICERestarts: Int = 3
    /// Longest time in `reconnecting` before the call ends with `disconnected`.
    public var reconnectTimeout: Duration = .seconds(20)
    /// Extra ring time the caller waits after its invite's `timeoutMs` for the server's `timeout`
    /// (which ends the call on every device with `noAnswer`) before it gives up itself and sends
    /// `cancel` (which the callee sees as `cancelled`). Without it the two timers race.
    public var callerRingGrace: Duration = .seconds(1)
    /// Extra ring time the callee waits after the invite's `timeoutMs` for the server's
    /// `timeout` before it ends the call itself.
    public var calleeRingGrace: Duration = .seconds(2)
    /// How long a video request waits for an answer before it counts as declined.
    public var videoRequestTimeout: Duration = .seconds(15)
    /// Delays before reconnect attempts 1, 2, 3, …; the last one repeats.
    public var reconnectBackoff: [Duration] = [.milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(8)]
    /// How long an answered call (or an outgoing one still ringing) waits, after its signaling
    /// connection was lost, for a new connection and the server's `resumed` before it ends with
    /// `signalingLost`. The server holds the call as long (`SignalingLimits.resumeWindowMs`).
    public var signalingResumeTimeout: Duration = .seconds(30)
    /// Reconnect attempts after a lost signaling connection before the client fails.
    public var maxReconnectAttempts: Int = 5
    /// Accept at once, without ringing, the call of the agent who picked one of this client's
    /// queue requests. Off by default: the call rings like any other, so a picker the
    /// application does not expect cannot get the customer's camera and microphone by itself
    /// (the server lets only tokens with the agent role pick; Docs/SIGNALING.md "Queues").
    public var acceptsCallsFromQueueAgents = false
    /// Members (this client included) a group call with video may have: a full mesh sends every
    /// stream to every member, so uplink and encoding cost grow with the member count.
    public var maxVideoMeshMembers = 4
    /// Members an audio-only group call may have.
    public var maxAudioMeshMembers = 8
    /// The secret pushes are signed with (the signaling server's push secret); without it every
    /// push is refused as `badSignature`.
    public var pushSecret: String?

    /// The defaults above.
    public init() {}

    /// The delay before reconnect attempt `attempt` (1-based).
    public func backoff(attempt: Int) -> Duration {
        guard let last = reconnectBackoff.last else { return .zero }
        let index = attempt - 1
        return index >= 0 && index < reconnectBackoff.count ? reconnectBackoff[index] : last
    }
}

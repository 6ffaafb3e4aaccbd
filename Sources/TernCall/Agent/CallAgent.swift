public import TernCore
public import TernPeer
public import TernSignaling
import TernSDP

/// The call facade's I/O driver: it owns a `CallClient` core and performs what the core asks —
/// signaling messages through a `SignalingClient`, peer connections for media and data, the
/// `manage-call` data channel — and feeds back what the network reports. Apps program against
/// this: `call`, `accept`, `reject`, `cancel`, `hangUp`, `sendMessage`, and `events`.
///
/// An actor: every input (app call, signaling message, peer event, timer) is serialized here, so
/// the core sees one input at a time, as it requires.
public actor CallAgent {
    /// Events for the application, in order. Single consumer.
    public nonisolated let events: AsyncStream<CallAgentEvent>
    /// Only the incoming calls (the `.call(.incomingCall)` events of `events`), with the txCode
    /// the app gave: for apps that want the ringing path on its own. Single consumer; keeps the
    /// newest 64 while nobody reads, so an app that never reads it loses nothing else.
    public nonisolated let incomingCalls: AsyncStream<(invite: Invite, txCode: String)>
    /// Only the call state changes (`NO_CALL` → … → `ENDED` with the end reason, call id and
    /// txCode). Single consumer; keeps the newest 64 while nobody reads.
    public nonisolated let callStates: AsyncStream<CallStateChange>
    /// Only the member updates of group calls (every member's state, whenever one changes).
    /// Single consumer; keeps the newest 64 while nobody reads.
    public nonisolated let callMemberStates: AsyncStream<CallMemberUpdate>
    /// Only the call client's own states (`stopped`, `starting`, `running`, `paused`, `resuming`,
    /// `failed`). Single consumer; keeps the newest 64 while nobody reads.
    public nonisolated let clientStates: AsyncStream<CallClientState>
    /// Our user id on the signaling server.
    public nonisolated let user: String

    let continuation: AsyncStream<CallAgentEvent>.Continuation
    let incomingCallsContinuation: AsyncStream<(invite: Invite, txCode: String)>.Continuation
    let callStatesContinuation: AsyncStream<CallStateChange>.Continuation
    let callMemberStatesContinuation: AsyncStream<CallMemberUpdate>.Continuation
    let clientStatesContinuation: AsyncStream<CallClientState>.Continuation
    /// The live signaling connection; nil while disconnected (`paused`, `resuming`, `stopped`).
    var signaling: SignalingClient?
    /// Opens and registers a new connection (reconnects); nil when the app handed over one client.
    let connector: SignalingConnector?
    /// Counts connections, so a stale connection's end is not taken for the current one's.
    var connectionGeneration = 0
    let peerConfiguration: PeerConfiguration
    let clock: any MonotonicClock
    var core: CallClient
    var calls: [String: ActiveCall] = [:]
    var tasks: [Task<Void, Never>] = []
    var timer: Task<Void, Never>?
    var callCounter = 0
    /// Queues of the `pick`s not answered yet, oldest first.
    var pendingPicks: [String] = []
    /// Signaling messages of a call waiting for the server's `resumed` (a lost connection), in order.
    var heldSignals: [SignalingMessage] = []
    /// The most messages held for a resume; more are dropped (and reported as a problem).
    static let maxHeldSignals = 64
    /// Outputs waiting to be carried out, in order (see `process`).
    var pendingOutputs: [CallOutput] = []
    var drainingOutputs = false
    /// Tasks whose outputs wait in `pendingOutputs` behind another task's, resumed once drained.
    var drainWaiters: [CheckedContinuation<Void, Never>] = []

    /// Opens a signaling connection and registers on it; the agent calls it on `start()` and
    /// again after a lost connection, on `CallConfiguration.reconnectBackoff`.
    public typealias SignalingConnector = @Sendable () async throws -> SignalingClient

    /// An agent on one already registered connection. If that connection drops, the active call
    /// ends (`signalingLost`) and, having no way to open another, the client ends `failed`;
    /// use `init(user:connect:...)` to reconnect automatically.
    /// - Parameters:
    ///   - user: the id this client registered as on `signaling`.
    ///   - signaling: a registered client (WebSocket or in-memory).
    ///   - peerConfiguration: how each call's peer connection is set up (ICE servers, ...).
    ///   - configuration: the call timers and limits (connect and ring timeouts, ICE restarts).
    ///   - clock: where the agent reads the time (tests pass a manual clock).
    public init(user: String, signaling: SignalingClient, peerConfiguration: PeerConfiguration = PeerConfiguration(),
                configuration: CallConfiguration = CallConfiguration(), clock: any MonotonicClock = SystemClock()) {
        self.init(user: user, signaling: signaling, connector: nil, peerConfiguration: peerConfiguration,
                  configuration: configuration, clock: clock)
    }

    /// An agent that opens its own connections with `connect` (connect + register), on `start()`
    /// and after every lost connection: `running` → `paused` → `resuming` → `running`.
    public init(user: String, connect: @escaping SignalingConnector, peerConfiguration: PeerConfiguration = PeerConfiguration(),
                configuration: CallConfiguration = CallConfiguration(), clock: any MonotonicClock = SystemClock()) {
        self.init(user: user, signaling: nil, connector: connect, peerConfiguration: peerConfiguration,
                  configuration: configuration, clock: clock)
    }

    private init(user: String, signaling: SignalingClient?, connector: SignalingConnector?,
                 peerConfiguration: PeerConfiguration, configuration: CallConfiguration, clock: any MonotonicClock) {
        self.user = user
        self.signaling = signaling
        self.connector = connector
        self.peerConfiguration = peerConfiguration
        self.clock = clock
        self.core = CallClient(configuration: configuration)
        core.localUser = user
        (callMemberStates, callMemberStatesContinuation) = AsyncStream.makeStream(
            of: CallMemberUpdate.self, bufferingPolicy: .bufferingNewest(64))
        (events, continuation) = AsyncStream.makeStream(of: CallAgentEvent.self, bufferingPolicy: .unbounded)
        (incomingCalls, incomingCallsContinuation) = AsyncStream.makeStream(
            of: (invite: Invite, txCode: String).self, bufferingPolicy: .bufferingNewest(64))
        (callStates, callStatesContinuation) = AsyncStream.makeStream(of: CallStateChange.self, bufferingPolicy: .bufferingNewest(64))
        (clientStates, clientStatesContinuation) = AsyncStream.makeStream(of: CallClientState.self, bufferingPolicy: .bufferingNewest(64))
    }

    /// Starts the client: from here calls can be placed and received.
    public func start() async throws(CallError) {
        let now = clock.now()
        let outputs = try core.start(now: now)
        await process(outputs)
    }

    /// Stops the client: ends any call and stops every task.
    public func stop() async {
        await process(core.stop(now: clock.now()))
        for call in calls.values { call.close() }
        calls = [:]
        for task in tasks { task.cancel() }
        timer?.cancel()
        continuation.finish()
        incomingCallsContinuation.finish()
        callStatesContinuation.finish()
        callMemberStatesContinuation.finish()
        clientStatesContinuation.finish()
    }

    // MARK: Calls

    /// Places a call; returns its id. The state goes RINGING when the callee rings.
    public func call(to callee: String, media: MediaOptions, attachedData: [AttachedData] = [],
                     timeout: Duration = .seconds(30), rejectPolicy: RejectPolicy = .all,
                     txCode: String = "") async throws(CallError) -> String {
        callCounter += 1
        let callId = "\(user)-\(clock.now().nanoseconds)-\(callCounter)"
        let outputs = try core.call(callId: callId, to: callee, media: media, attachedData: attachedData,
                                    timeout: timeout, rejectPolicy: rejectPolicy, txCode: txCode, now: clock.now())
        await process(outputs)
        return callId
    }

    /// Answers the ringing call. `attachedData`: in a group call, this invitee's own data, which
    /// every member sees in `members`.
    public func accept(media: MediaOptions, txCode: String? = nil, attachedData: [AttachedData] = []) async throws(CallError) {
        await process(try core.accept(media: media, txCode: txCode, attachedData: attachedData, now: clock.now()))
    }

    /// Refuses the ringing call (`attachedData`: as for `accept`).
    public func reject(reason: RejectReason = .declined, attachedData: [AttachedData] = []) async throws(CallError) {
        await process(try core.reject(reason: reason, attachedData: attachedData, now: clock.now()))
    }

    public func cancel() async throws(CallError) {
        await process(try core.cancel(now: clock.now()))
    }

    public func hangUp() async throws(CallError) {
        await process(try core.hangUp(now: clock.now()))
    }

    /// Sends the `sendMessage` envelope over the `manage-call` channel; throws when no call is in
    /// progress or the channel is not open — success means the envelope was handed to the channel.
    public func sendMessage(eventData: [AttachedData]) async throws(CallError) {
        try requireManageChannel()
        await process(try core.sendMessage(eventData: eventData, now: clock.now()))
    }

    public func minimizeCall(eventData: [AttachedData] = []) async throws(CallError) {
        try requireManageChannel()
        await process(try core.minimizeCall(eventData: eventData, now: clock.now()))
    }

    public func startOperation(name: String, eventData: [AttachedData] = []) async throws(CallError) {
        try requireManageChannel()
        await process(try core.startOperation(name: name, eventData: eventData, now: clock.now()))
    }

    public func turnBackToVideoCall() async throws(CallError) {
        try requireManageChannel()
        await process(try core.turnBackToVideoCall(now: clock.now()))
    }

    /// Adds, changes or removes video mid-call (renegotiates; the other side may accept or deny).
    public func setVideoMode(_ mode: VideoMode) async throws(CallError) {
        await process(try core.setVideoMode(mode, now: clock.now()))
    }

    public func acceptVideo(mode: VideoMode) async throws(CallError) {
        await process(try core.acceptVideo(mode: mode, now: clock.now()))
    }

    public func denyVideo() async throws(CallError) {
        await process(try core.denyVideo(now: clock.now()))
    }

    public func setHold(_ onHold: Bool) async throws(CallError) {
        await process(try core.setHold(onHold, now: clock.now()))
    }

    /// Restarts ICE on the call in progress (see `CallClient.restartICE(now:)`): this side sends
    /// the re-offer with new credentials.
    public func restartICE() async throws(CallError) {
        await process(try core.restartICE(now: clock.now()))
    }

    public func setCameraEnabled(_ enabled: Bool) async throws(CallError) {
        await process(try core.setCameraEnabled(enabled, now: clock.now()))
    }

    /// The call client's state (`running` while connected and registered).
    public var clientState: CallClientState { core.state }

    /// Whether the client is connected and registered, so calls can be placed and received.
    public var isRunning: Bool { core.state == .running }

    /// Whether a call is active (`isOnCall`).
    public var isOnCall: Bool { core.isOnCall }

    /// The current call's state, `NO_CALL` when there is none.
    public var callState: CallSessionState { core.currentCall?.state ?? .noCall }

    /// The peer connection of a call, once created.
    public func peer(callId: String) -> PeerConnection? { calls[callId]?.peer }

    /// The senders of a call's audio and video, for the application's media source.
    public func senders(callId: String) -> (audio: RTPSender?, video: RTPSender?) {
        (calls[callId]?.audio?.sender, calls[callId]?.video?.sender)
    }

    private func requireManageChannel() throws(CallError) {
        guard let call = core.currentCall else { throw .noSuchCall(callId: nil) }
        guard call.state == .inProgress else {
            throw .callNotInProgress(operation: "send a manage-call event", state: call.state)
        }
        guard calls[call.callId]?.manageChannel?.readyState == .open else {
            throw .manageChannelNotOpen(operation: "send a manage-call event")
        }
    }

    // MARK: Timer

    /// Arms one task at the core's next deadline (the core is sans-I/O; time comes from here).
    func rescheduleTimer() {
        timer?.cancel()
        guard let deadline = core.nextTimeout else { return }
        let delay = max(.zero, deadline - clock.now())
        timer = Task { [weak self] in
            try? await Task.sleep(for: delay)
            guard !Task.isCancelled else { return }
            await self?.fireTimer()
        }
    }

    private func fireTimer() async {
        await process(core.handleTimeout(now: clock.now()))
    }

    /// The core asked for a connection: the handed-over client the first time, otherwise a new
    /// one from the connector (a reconnect). Runs as an output (`CallAction.connectSignaling`):
    /// what the core answers goes next in the same drain (`carryOutNext`).
    func connectSignaling() async {
        let client: SignalingClient
        if let existing = signaling {
            client = existing
        } else if let connector {
            do {
                client = try await connector()
            } catch {
                continuation.yield(.problem(callId: nil, "signaling connect failed: \(error)"))
                carryOutNext(core.signalingConnectFailed(now: clock.now()))
                return
            }
        } else {
            continuation.yield(.problem(callId: nil, "signaling connection lost and no connector to open another"))
            carryOutNext(core.signalingConnectFailed(now: clock.now()))
            return
        }
        signaling = client
        connectionGeneration += 1
        let generation = connectionGeneration
        let messages = client.messages
        tasks.append(Task { [weak self] in
            for await message in messages {
                guard let self else { return }
                await self.receive(message)
            }
            await self?.signalingClosed(generation: generation)
        })
        carryOutNext(core.signalingConnected(now: clock.now()))
    }

    private func signalingClosed(generation: Int) async {
        guard generation == connectionGeneration, signaling != nil else { return }
        signaling = nil
        await process(core.signalingLost(now: clock.now()))
    }
}

public import TernCore
import Synchronization

/// Runs a `SignalingRouter` for a driver: gives each connection an id and an ordered
/// stream of outgoing frames, feeds frames and the clock's time to the router, and
/// delivers its actions. Shared by the WebSocket server and the in-memory transport.
///
/// Thread-safe: the router and the connection table live behind one `Mutex`, and
/// outgoing frames are queued on the connections' streams while it is held, so frames
/// leave in the order the router produced them.
///
/// With a `SignalingSequencer` (several nodes on one PostgreSQL) inputs are not applied here
/// but submitted; every node applies every node's inputs in the shared order
/// (`applySequenced`) and writes only what is for its own connections.
public final class SignalingSwitchboard: Sendable {
    /// One item for a connection's writer.
    public enum Outgoing: Sendable, Hashable {
        /// A text frame to send.
        case text(String)
        /// Close the connection (the stream finishes after this).
        case close(reason: String)
        /// Close the connection because it did not read what was queued for it (WebSocket
        /// 1008, policy violation); the stream finishes after this.
        case closeTooSlow(reason: String)
        /// Close a connection the server has no room for (WebSocket 1013, try again later);
        /// the stream finishes after this.
        case closeServerFull(reason: String)
    }

    private struct State: ~Copyable {
        var router: SignalingRouter
        var outlets: [SignalingConnectionID: AsyncStream<Outgoing>.Continuation] = [:]
        /// UTF-8 bytes of text frames queued and not yet reported written (`written`).
        var queuedBytes: [SignalingConnectionID: Int] = [:]
        var slowConsumersClosed = 0
        var connectionsRefused = 0
        var nextID: UInt64 = 1
        /// Sequenced mode: when frames of this node's connections were received, oldest first,
        /// to time them when they come back from the log.
        var framesInFlight: [SignalingConnectionID: [ContinuousClock.Instant]] = [:]
        /// Sequenced mode: a `tick` was submitted and has not come back yet.
        var tickInFlight = false
    }

    private let state: Mutex<State>
    /// The clock every `now` comes from.
    public let clock: any MonotonicClock
    /// The most text a connection may have queued and unwritten: what others send it beyond
    /// that closes it (`Outgoing.closeTooSlow`), so a client that stops reading cannot make
    /// the server hold whatever the others send it (256 KiB descriptions, invites to 16 devices).
    public let outboundBudget: Int
    /// The most connections open at once; one more gets `Outgoing.closeServerFull` at once.
    public let maximumConnections: Int
    /// Checks `register` tokens; nil is open development mode (any token registers).
    let tokenVerifier: (any SignalingTokenVerifier)?
    /// Pushes invitations to invitees with no live connection; nil: push off.
    let pushSender: (any SignalingPushSender)?
    /// Orders the inputs of several nodes; nil for a single node (inputs applied at once).
    let sequencer: (any SignalingSequencer)?
    /// Told of every message refused on this node's connections (the server logs them).
    let onRefused: (@Sendable (SignalingConnectionID, SignalingError) -> Void)?
    /// Told how long each frame of this node's connections took, from receipt until every frame
    /// it caused was queued (through the shared log, with a sequencer).
    let onFrameHandled: (@Sendable (Duration) -> Void)?

    /// Creates a switchboard and its router, reading time from `clock`. With a
    /// `tokenVerifier`, `register` needs a token it accepts; without, any token registers
    /// (development only).
    public init(limits: SignalingLimits = SignalingLimits(), tokenVerifier: (any SignalingTokenVerifier)? = nil,
                clock: any MonotonicClock = SystemClock(), outboundBudget: Int = 4 * 1024 * 1024,
                maximumConnections: Int = 10_000, sequencer: (any SignalingSequencer)? = nil,
                pushSender: (any SignalingPushSender)? = nil,
                onRefused: (@Sendable (SignalingConnectionID, SignalingError) -> Void)? = nil,
                onFrameHandled: (@Sendable (Duration) -> Void)? = nil) {
        state = Mutex(State(router: SignalingRouter(verifiesTokens: tokenVerifier != nil, limits: limits,
                                                    push: pushSender?.policy ?? .off)))
        self.tokenVerifier = tokenVerifier
        self.pushSender = pushSender
        self.sequencer = sequencer
        self.onRefused = onRefused
        self.onFrameHandled = onFrameHandled
        self.clock = sequencer.map { SequencerClock(sequencer: $0) } ?? clock
        self.outboundBudget = outboundBudget
        self.maximumConnections = maximumConnections
    }

    /// A new connection: its id and the frames to write to it (only `closeServerFull` when
    /// `maximumConnections` are open already).
    public func open() -> (SignalingConnectionID, AsyncStream<Outgoing>) {
        let (stream, continuation) = AsyncStream<Outgoing>.makeStream()
        let now = clock.now()
        let node = sequencer?.node ?? 0
        let (id, opened) = state.withLock { state in
            let id = SignalingConnectionID(node: node, local: state.nextID)
            state.nextID += 1
            guard state.outlets.count < maximumConnections else {
                state.connectionsRefused += 1
                continuation.yield(.closeServerFull(reason: "the server holds \(maximumConnections) connections"))
                continuation.finish()
                return (id, false)
            }
            if sequencer == nil { state.router.open(connection: id, now: now) }
            state.outlets[id] = continuation
            state.queuedBytes[id] = 0
            return (id, true)
        }
        if opened { sequencer?.submit(.open(id)) }
        return (id, stream)
    }

    /// One text frame received on `connection`; `false` if the connection is closed. Refusals
    /// reach `onRefused`, the handling time `onFrameHandled` (with a sequencer, once the frame came
    /// back from the shared log).
    @discardableResult
    public func receive(_ text: String, from connection: SignalingConnectionID) -> Bool {
        let received = ContinuousClock.now
        if let sequencer {
            let open = state.withLock { state in
                guard state.outlets[connection] != nil else { return false }
                // Timing only; past the bound (a client far ahead of the log) frames go untimed.
                if state.framesInFlight[connection, default: []].count < Self.maxTimedFramesInFlight {
                    state.framesInFlight[connection, default: []].append(received)
                }
                return true
            }
            if open { sequencer.submit(.frame(connection, text: text)) }
            return open
        }
        let now = clock.now()
        let open = state.withLock { state in
            guard state.outlets[connection] != nil else { return false }
            deliver(state.router.handle(connection: connection, text: text, now: now), in: &state, now: now)
            return true
        }
        if open { onFrameHandled?(ContinuousClock.now - received) }
        return open
    }

    /// Receipt times kept per connection for `onFrameHandled` in sequenced mode.
    static let maxTimedFramesInFlight = 256

    /// Sequenced mode: inputs of every node in the shared order, each at its time; this node
    /// writes what is for its own connections. Returns a copy of the router after the last one
    /// when `snapshot` is set (the log stores it).
    @discardableResult
    public func applySequenced(_ inputs: [(SignalingRouterInput, Instant)], snapshot: Bool = false) -> SignalingRouter? {
        let applied = ContinuousClock.now
        var handled: [Duration] = []
        let router: SignalingRouter? = state.withLock { state in
            for (input, now) in inputs {
                switch input {
                case .frame(let connection, _):
                    if var pending = state.framesInFlight[connection], !pending.isEmpty {
                        handled.append(applied - pending.removeFirst())
                        state.framesInFlight[connection] = pending.isEmpty ? nil : pending
                    }
                case .tick:
                    state.tickInFlight = false
                default:
                    break
                }
                deliver(state.router.apply(input, now: now), in: &state, now: now)
            }
            return snapshot ? state.router : nil
        }
        if let onFrameHandled { for duration in handled { onFrameHandled(duration) } }
        return router
    }

    /// Sequenced mode, on joining: the router as of a snapshot of the log.
    public func restore(_ router: SignalingRouter) {
        state.withLock { $0.router = router }
    }

    /// The verifier's answer for a `register` (see `deliver`).
    private func tokenVerified(_ connection: SignalingConnectionID, user: String,
                               result: Result<SignalingRole, SignalingError>) {
        if let sequencer {
            switch result {
            case .success(let role): sequencer.submit(.tokenVerified(connection, user: user, role: role, error: nil))
            case .failure(let error): sequencer.submit(.tokenVerified(connection, user: user, role: nil, error: error))
            }
            return
        }
        let now = clock.now()
        state.withLock { state in
            guard state.outlets[connection] != nil else { return }
            deliver(state.router.tokenVerified(connection: connection, user: user, result: result, now: now),
                    in: &state, now: now)
        }
    }

    /// `connection` was closed on purpose; the router ends its calls and tells the other parties.
    public func close(_ connection: SignalingConnectionID) { end(.close(connection), connection) }

    /// `connection` is gone without having ended its calls (its socket closed or failed): the
    /// router holds them for a `resume` (`SignalingRouter.drop`).
    public func drop(_ connection: SignalingConnectionID) { end(.drop(connection), connection) }

    /// The socket of `connection` is gone: its stream ends and the router hears `input`.
    private func end(_ input: SignalingRouterInput, _ connection: SignalingConnectionID) {
        let now = clock.now()
        state.withLock { state in
            state.outlets.removeValue(forKey: connection)?.finish()
            state.queuedBytes[connection] = nil
            state.framesInFlight[connection] = nil
            if sequencer == nil { deliver(state.router.apply(input, now: now), in: &state, now: now) }
        }
        // Every node's router must see the connection go, even one the switchboard closed first
        // (too slow a reader, too many errors): a repeated close or drop is a no-op.
        sequencer?.submit(input)
    }

    /// The writer of `connection` wrote a text frame of `bytes` UTF-8 bytes it took from the
    /// stream: they no longer count against `outboundBudget`.
    public func written(_ bytes: Int, on connection: SignalingConnectionID) {
        state.withLock { state in
            if let queued = state.queuedBytes[connection] { state.queuedBytes[connection] = max(0, queued - bytes) }
        }
    }

    /// Connections refused because `maximumConnections` were open.
    public var connectionsRefused: Int { state.withLock { $0.connectionsRefused } }

    /// Connections closed because they had more than `outboundBudget` queued.
    public var slowConsumersClosed: Int { state.withLock { $0.slowConsumersClosed } }

    /// Runs the router's timeouts if one is due; returns the next deadline, if any.
    @discardableResult
    public func fireTimeouts() -> Instant? {
        let now = clock.now()
        if let sequencer {
            // Any node may ask for the tick; every node applies it where the log puts it.
            let (due, next) = state.withLock { state -> (Bool, Instant?) in
                guard !state.tickInFlight, let next = state.router.nextTimeout, next <= now else {
                    return (false, state.router.nextTimeout)
                }
                state.tickInFlight = true
                return (true, next)
            }
            if due { sequencer.submit(.tick) }
            return next
        }
        return state.withLock { state in
            if let due = state.router.nextTimeout, due <= now {
                deliver(state.router.handleTimeout(now: now), in: &state, now: now)
            }
            return state.router.nextTimeout
        }
    }

    /// What every node of one shared router must agree on: token checks on or off, the limits.
    public var routerConfiguration: (verifiesTokens: Bool, limits: SignalingLimits, push: SignalingPushPolicy) {
        state.withLock { ($0.router.verifiesTokens, $0.router.limits, $0.router.push) }
    }

    /// Whether the router accepts any token (no secret).
    public var isOpenMode: Bool { state.withLock { $0.router.isOpenMode } }

    /// Messages the router refused so far, by error code.
    public var refusals: [SignalingErrorCode: Int] { state.withLock { $0.router.refusals } }

    /// Connections currently open.
    public var connectionCount: Int { state.withLock { $0.outlets.count } }

    /// Everything the server's `/metrics` reports, read under one lock so the figures agree.
    public struct Snapshot: Sendable, Hashable {
        public var gauges: SignalingRouterGauges
        public var stats: SignalingRouterStats
        public var refusals: [SignalingErrorCode: Int]
        /// Connections with an open outgoing stream (the router may also know dropped ones).
        public var openConnections: Int
        public var slowConsumersClosed: Int
        public var connectionsRefused: Int
    }

    /// The router's gauges and totals and the switchboard's own counters, at once.
    public func snapshot() -> Snapshot {
        state.withLock { state in
            Snapshot(gauges: state.router.gauges, stats: state.router.stats, refusals: state.router.refusals,
                     openConnections: state.outlets.count, slowConsumersClosed: state.slowConsumersClosed,
                     connectionsRefused: state.connectionsRefused)
        }
    }

    /// Closes every connection's outgoing stream (server shutdown).
    public func closeAll(reason: String) {
        state.withLock { state in
            for (_, outlet) in state.outlets.sorted(by: { $0.key < $1.key }) {
                outlet.yield(.close(reason: reason))
                outlet.finish()
            }
            state.outlets.removeAll()
            state.queuedBytes.removeAll()
        }
    }

    private func deliver(_ actions: [SignalingRouterAction], in state: inout State, now: Instant) {
        var work = actions[...]
        while let action = work.popFirst() {
            switch action {
            case .send(let connection, let message):
                guard let outlet = state.outlets[connection] else { continue }
                let text = SignalingCodec.encode(message)
                let queued = (state.queuedBytes[connection] ?? 0) + text.utf8.count
                guard queued <= outboundBudget else {
                    // Closed like a dropped socket: the router tells the others (which may
                    // queue more, for other connections).
                    state.outlets[connection] = nil
                    state.queuedBytes[connection] = nil
                    state.slowConsumersClosed += 1
                    outlet.yield(.closeTooSlow(reason: "more than \(outboundBudget) bytes queued and not read"))
                    outlet.finish()
                    if let sequencer {
                        sequencer.submit(.close(connection))
                    } else {
                        work.append(contentsOf: state.router.close(connection: connection, now: now))
                    }
                    continue
                }
                state.queuedBytes[connection] = queued
                outlet.yield(.text(text))
                if case .error(let error) = message { onRefused?(connection, error) }
            case .verifyToken(let connection, let user, let token):
                // The node that holds the connection verifies (every node's router asks).
                guard state.outlets[connection] != nil else { continue }
                // The verifier may be slow (it is async): the connection waits unregistered.
                let verifier = tokenVerifier
                Task { [self] in
                    let result = await verifier?.verify(token: token, user: user)
                        ?? .failure(SignalingError(code: .badToken, message: "this server checks no tokens"))
                    tokenVerified(connection, user: user, result: result)
                }
            case .push(let connection, let invite, let user, let ringMs):
                // The node that holds the inviting connection pushes (every node's router asks).
                guard state.outlets[connection] != nil else { continue }
                pushSender?.push(invite, to: user, ringMs: ringMs)
            case .close(let connection, let reason):
                state.queuedBytes[connection] = nil
                if let outlet = state.outlets.removeValue(forKey: connection) {
                    outlet.yield(.close(reason: reason))
                    outlet.finish()
                }
            }
        }
    }
}

/// A sequencer's time base as the switchboard's clock.
private struct SequencerClock: MonotonicClock {
    let sequencer: any SignalingSequencer
    func now() -> Instant { sequencer.now() }
}

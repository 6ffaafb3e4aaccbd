public import TernCore
import Synchronization

/// Runs a `SignalingRouter` for a driver: gives each connection an id and an ordered
/// stream of outgoing frames, feeds frames and the clock's time to the router, and
/// delivers its actions. Shared by the WebSocket server and the in-memory transport.
///
/// Thread-safe: the router and the connection table live behind one `Mutex`, and
/// outgoing frames are queued on the connections' streams while it is held, so frames
/// leave in the order the router produced them.
public final class SignalingSwitchboard: Sendable {
    /// One item for a connection's writer.
    public enum Outgoing: Sendable, Hashable {
        /// A text frame to send.
        case text(String)
        /// Close the connection (the stream finishes after this).
        case close(reason: String)
    }

    private struct State: ~Copyable {
        var router: SignalingRouter
        var outlets: [SignalingConnectionID: AsyncStream<Outgoing>.Continuation] = [:]
        var nextID: UInt64 = 1
    }

    private let state: Mutex<State>
    /// The clock every `now` comes from.
    public let clock: any MonotonicClock

    /// Creates a switchboard around `router`, reading time from `clock`.
    public init(router: SignalingRouter, clock: any MonotonicClock = SystemClock()) {
        state = Mutex(State(router: router))
        self.clock = clock
    }

    /// A new connection: its id and the frames to write to it.
    public func open() -> (SignalingConnectionID, AsyncStream<Outgoing>) {
        let (stream, continuation) = AsyncStream<Outgoing>.makeStream()
        let id = state.withLock { state in
            let id = SignalingConnectionID(state.nextID)
            state.nextID += 1
            state.router.open(connection: id)
            state.outlets[id] = continuation
            return id
        }
        return (id, stream)
    }

    /// One text frame received on `connection`; `false` if the connection is closed.
    @discardableResult
    public func receive(_ text: String, from connection: SignalingConnectionID) -> Bool {
        receiveReportingRefusals(text, from: connection) != nil
    }

    /// One text frame received on `connection`: the errors the router answered it with (empty
    /// when it was accepted), or nil if the connection is closed. For a driver that logs refusals.
    public func receiveReportingRefusals(_ text: String, from connection: SignalingConnectionID) -> [SignalingError]? {
        let now = clock.now()
        return state.withLock { state in
            guard state.outlets[connection] != nil else { return nil }
            let actions = state.router.handle(connection: connection, text: text, now: now)
            Self.deliver(actions, in: &state)
            return actions.compactMap { action in
                if case let .send(to, .error(error)) = action, to == connection { error } else { nil }
            }
        }
    }

    /// `connection` is gone (socket closed); the router tells the other parties.
    public func close(_ connection: SignalingConnectionID) {
        let now = clock.now()
        state.withLock { state in
            state.outlets.removeValue(forKey: connection)?.finish()
            let actions = state.router.close(connection: connection, now: now)
            Self.deliver(actions, in: &state)
        }
    }

    /// Runs the router's timeouts if one is due; returns the next deadline, if any.
    @discardableResult
    public func fireTimeouts() -> Instant? {
        let now = clock.now()
        return state.withLock { state in
            if let due = state.router.nextTimeout, due <= now {
                Self.deliver(state.router.handleTimeout(now: now), in: &state)
            }
            return state.router.nextTimeout
        }
    }

    /// Whether the router accepts any token (no secret).
    public var isOpenMode: Bool { state.withLock { $0.router.isOpenMode } }

    /// Messages the router refused so far, by error code.
    public var refusals: [SignalingErrorCode: Int] { state.withLock { $0.router.refusals } }

    /// Connections currently open.
    public var connectionCount: Int { state.withLock { $0.outlets.count } }

    /// Closes every connection's outgoing stream (server shutdown).
    public func closeAll(reason: String) {
        state.withLock { state in
            for (_, outlet) in state.outlets.sorted(by: { $0.key < $1.key }) {
                outlet.yield(.close(reason: reason))
                outlet.finish()
            }
            state.outlets.removeAll()
        }
    }

    private static func deliver(_ actions: [SignalingRouterAction], in state: inout State) {
        for action in actions {
            switch action {
            case .send(let connection, let message):
                state.outlets[connection]?.yield(.text(SignalingCodec.encode(message)))
            case .close(let connection, let reason):
                if let outlet = state.outlets.removeValue(forKey: connection) {
                    outlet.yield(.close(reason: reason))
                    outlet.finish()
                }
            }
        }
    }
}

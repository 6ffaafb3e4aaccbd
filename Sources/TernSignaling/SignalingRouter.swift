public import TernCore

/// The signaling server's logic, sans-I/O: connection ids and frames in, time passed
/// in, `SignalingRouterAction`s (sends and close requests) out. No sockets, tasks or
/// clocks inside, so every rule of Docs/SIGNALING.md is testable deterministically.
///
/// A driver (the WebSocket `SignalingServer`, or `SignalingSwitchboard` for in-memory
/// pipes) calls `open`, `handle(connection:text:now:)` for each frame, `close` when a
/// connection goes away, and `handleTimeout(now:)` once `now >= nextTimeout`.
public struct SignalingRouter: Codable, Sendable {
    /// Per-connection state.
    struct Connection: Codable, Sendable {
        var user: String?
        /// What the token allows; set with `user`.
        var role: SignalingRole?
        /// The user whose token the driver is verifying (`SignalingRouterAction.verifyToken`).
        var verifying: String?
        var consecutiveErrors = 0
        var closing = false
        /// When it must have registered by (`SignalingLimits.registerTimeoutMs`); nil once registered.
        var registerDeadline: Instant?
        /// Message tokens left and when they were last topped up (`messagesPerSecond`, `messageBurst`).
        var tokens: Double
        var tokensAt: Instant?
    }

    /// Whether `register` needs a token the driver's `SignalingTokenVerifier` accepts; without,
    /// open development mode: any token registers, with the agent role.
    public let verifiesTokens: Bool
    /// The limits enforced.
    public let limits: SignalingLimits
    /// When invitations are pushed (`SignalingRouterAction.push`).
    public let push: SignalingPushPolicy

    var connections: [SignalingConnectionID: Connection] = [:]
    /// Registered connections of each user, ascending.
    var devicesByUser: [ExactKey: [SignalingConnectionID]] = [:]
    var calls: [ExactKey: SignalingCall] = [:]
    var groups: [ExactKey: SignalingGroupCall] = [:]
    /// Ended calls remembered for `callStatus`, oldest first in `endedOrder`.
    var endedCalls: [ExactKey: EndedCall] = [:]
    var endedOrder: [ExactKey] = []
    var queues: [ExactKey: [SignalingQueueEntry]] = [:]
    /// Connections that dropped while a party to calls, held for a `resume` (SignalingRouter+Resume).
    var away: [SignalingConnectionID: AwayConnection] = [:]
    /// Messages refused since the router started, by error code (malformed, bad token,
    /// someone else's call, too large, ...): the security counters of Docs/SIGNALING.md.
    public private(set) var refusals: [SignalingErrorCode: Int] = [:]
    /// Running totals (invites, accepts, resumes) since the router started.
    public internal(set) var stats = SignalingRouterStats()

    /// Creates a router; `verifiesTokens: false` accepts any token (development only).
    public init(verifiesTokens: Bool = false, limits: SignalingLimits = SignalingLimits(),
                push: SignalingPushPolicy = .off) {
        self.verifiesTokens = verifiesTokens
        self.limits = limits
        self.push = push
    }

    /// Whether `register` accepts any token.
    public var isOpenMode: Bool { !verifiesTokens }

    /// Connections known to the router.
    public var connectionCount: Int { connections.count }

    /// Calls ringing or answered, group calls included.
    public var callCount: Int { calls.count + groups.count }

    /// What the router holds right now.
    public var gauges: SignalingRouterGauges {
        var gauges = SignalingRouterGauges()
        gauges.connections = connections.count
        gauges.registered = connections.values.lazy.filter { $0.user != nil }.count
        gauges.callsAnswered = calls.values.lazy.filter { $0.answeredBy != nil }.count
        let groupsAnswered = groups.values.lazy.filter { $0.acceptedCount > 1 }.count
        gauges.callsRinging = calls.count - gauges.callsAnswered + groups.count - groupsAnswered
        gauges.callsAnswered += groupsAnswered
        gauges.groupCalls = groups.count
        gauges.connectionsAway = away.count
        gauges.messagesHeld = away.values.reduce(0) { $0 + $1.held.count }
        gauges.queueRequests = queues.values.reduce(0) { $0 + $1.count }
        return gauges
    }

    /// The user a connection registered as, if it did.
    public func user(of connection: SignalingConnectionID) -> String? { connections[connection]?.user }

    /// The role a connection registered with, if it did.
    public func role(of connection: SignalingConnectionID) -> SignalingRole? { connections[connection]?.role }

    /// The earliest instant at which `handleTimeout(now:)` has work; `nil` if none.
    public var nextTimeout: Instant? {
        let ring = calls.values.lazy.filter { $0.answeredBy == nil }.map(\.deadline).min()
        let register = connections.values.lazy.compactMap { $0.closing ? nil : $0.registerDeadline }.min()
        let resume = away.values.lazy.map(\.deadline).min()
        let invitation = groups.values.lazy.compactMap(\.nextDeadline).min()
        return [ring, register, resume, invitation].compactMap { $0 }.min()
    }

    /// A new connection, opened at `now` (messages from unknown connections also open them
    /// implicitly): it has `SignalingLimits.registerTimeoutMs` to register.
    public mutating func open(connection: SignalingConnectionID, now: Instant) {
        guard connections[connection] == nil else { return }
        connections[connection] = Connection(registerDeadline: now + .milliseconds(limits.registerTimeoutMs),
                                             tokens: Double(limits.messageBurst), tokensAt: now)
    }

    /// One text frame from `connection`: decoded, checked, acted on.
    public mutating func handle(connection: SignalingConnectionID, text: String, now: Instant) -> [SignalingRouterAction] {
        open(connection: connection, now: now)
        var out: [SignalingRouterAction] = []
        guard takeToken(connection, now: now) else {
            refuse(connection, SignalingError(code: .rateLimited, message:
                "more than \(limits.messagesPerSecond) messages a second (bursts of \(limits.messageBurst))"), into: &out)
            return out
        }
        do {
            let message = try SignalingCodec.decode(text, maxBytes: limits.maxFrameBytes)
            dispatch(message, from: connection, now: now, into: &out)
        } catch {
            refuse(connection, error, into: &out)
        }
        return out
    }

    /// One already-decoded message from `connection` (in-process drivers and tests).
    public mutating func handle(connection: SignalingConnectionID, message: SignalingMessage, now: Instant)
        -> [SignalingRouterAction]
    {
        open(connection: connection, now: now)
        var out: [SignalingRouterAction] = []
        guard takeToken(connection, now: now) else {
            refuse(connection, SignalingError(code: .rateLimited, message:
                "more than \(limits.messagesPerSecond) messages a second (bursts of \(limits.messageBurst))"), into: &out)
            return out
        }
        dispatch(message, from: connection, now: now, into: &out)
        return out
    }

    /// `connection` closed on purpose (the client closed it, or the server did): its calls end
    /// (the other side is told), its queue requests leave their queues, its registration is dropped.
    public mutating func close(connection: SignalingConnectionID, now: Instant) -> [SignalingRouterAction] {
        guard let state = connections.removeValue(forKey: connection) else { return [] }
        var out: [SignalingRouterAction] = []
        unregister(connection, user: state.user)
        callsLost(connection, into: &out)
        requestsLost(connection, into: &out)
        return out
    }

    /// `connection` was lost without its calls being ended (the socket dropped): as `close`,
    /// except that the calls it placed or answered are held `SignalingLimits.resumeWindowMs` for a
    /// `resume` from a new connection of the same user; messages for them wait meanwhile.
    public mutating func drop(connection: SignalingConnectionID, now: Instant) -> [SignalingRouterAction] {
        // A connection the server was closing (too many errors, no register) is not held.
        guard limits.resumeWindowMs > 0, let state = connections[connection], !state.closing, let user = state.user else {
            return close(connection: connection, now: now)
        }
        connections[connection] = nil
        var out: [SignalingRouterAction] = []
        unregister(connection, user: user)
        hold(connection, user: user, now: now, into: &out)
        requestsLost(connection, into: &out)
        return out
    }

    private mutating func unregister(_ connection: SignalingConnectionID, user: String?) {
        guard let user else { return }
        let key = ExactKey(user)
        devicesByUser[key]?.removeAll { $0 == connection }
        if devicesByUser[key]?.isEmpty == true { devicesByUser[key] = nil }
    }

    /// Ends every unanswered call whose deadline is not after `now`: `timeout` to the
    /// caller and to each device still ringing.
    public mutating func handleTimeout(now: Instant) -> [SignalingRouterAction] {
        var out: [SignalingRouterAction] = []
        let silent = connections.filter { !$0.value.closing && $0.value.registerDeadline.map { $0 <= now } == true }
        for id in silent.keys.sorted() {
            connections[id]?.closing = true
            out.append(.close(id, reason: "no register within \(limits.registerTimeoutMs) ms"))
        }
        expireAway(now: now, into: &out)
        let expired = calls.values.filter { $0.answeredBy == nil && $0.deadline <= now }.sorted { $0.id < $1.id }
        for call in expired {
            send(.timeout(callId: call.id), to: call.caller, into: &out)
            for device in call.ringingDevices { send(.timeout(callId: call.id), to: device, into: &out) }
            retire(call, as: .timeout)
        }
        expireGroupInvitations(now: now, into: &out)
        return out
    }

    // MARK: Dispatch

    mutating func dispatch(_ message: SignalingMessage, from connection: SignalingConnectionID, now: Instant,
                           into out: inout [SignalingRouterAction])
    {
        guard connections[connection]?.closing == false else { return }
        guard SignalingMessage.clientTypes.contains(message.type) else {
            return refuse(connection, SignalingError(
                code: .serverOnlyType, message: "\"\(message.type)\" is sent by the server only"), into: &out)
        }
        if case .register(let user, let token) = message {
            return register(connection, user: user, token: token, into: &out)
        }
        guard let user = connections[connection]?.user else {
            let wait = connections[connection]?.verifying == nil ? "send register before" : "wait for registered before"
            return refuse(connection, SignalingError(
                code: .notRegistered, message: "\(wait) \(message.type)", callId: message.callId), into: &out)
        }
        if case .callStatus(let id, _) = message { return callStatus(id, from: connection, user: user, into: &out) }
        if let id = message.callId, groups[ExactKey(id)] != nil, !message.isInvite {
            return dispatchGroup(message, id: id, from: connection, user: user, now: now, into: &out)
        }
        switch message {
        case .invite(let invite): self.invite(invite, from: connection, user: user, now: now, into: &out)
        case .ringing(let id): ringing(id, from: connection, into: &out)
        case .accept(let id, _): accept(id, from: connection, into: &out)
        case .reject(let id, let reason, _): reject(id, reason: reason, from: connection, into: &out)
        case .cancel(let id): cancel(id, from: connection, into: &out)
        case .hangup(let id): hangup(id, from: connection, into: &out)
        case .description(let id, _, _, _), .candidate(let id, _, _, _): relay(message, callId: id, from: connection, into: &out)
        case .inviteMore(let id, _, _), .cancelInvitees(let id, _), .quit(let id):
            // Not a group call (those went to dispatchGroup above).
            if calls[ExactKey(id)] == nil {
                refuse(connection, SignalingError(code: .notInCall, message:
                    "cannot \(message.type): no such call, or this connection is not a party to it", callId: id), into: &out)
            } else {
                refuse(connection, stateError(id, "\(message.type) is for group calls; a one-to-one call ends with hangup"), into: &out)
            }
        case .resume(let ids): resume(ids, from: connection, user: user, into: &out)
        case .enqueue(let queue, let requestId, let data):
            enqueue(queue: queue, requestId: requestId, attachedData: data, from: connection, user: user, into: &out)
        case .dequeue(let queue, let requestId): dequeue(queue: queue, requestId: requestId, from: connection, into: &out)
        case .pick(let queue): pick(queue: queue, agent: connection, agentUser: user, into: &out)
        default: break  // server-only types were refused above
        }
    }

    // MARK: Output helpers

    /// Sends `message` on `connection`; for a connection away (dropped, its calls held) the
    /// message waits for its `resume`.
    mutating func send(_ message: SignalingMessage, to connection: SignalingConnectionID,
                       into out: inout [SignalingRouterAction])
    {
        guard let state = connections[connection] else { return holdMessage(message, for: connection, into: &out) }
        guard !state.closing else { return }
        out.append(.send(connection, message))
    }

    /// A successful message: the connection's run of errors is over.
    mutating func accepted(_ connection: SignalingConnectionID) {
        connections[connection]?.consecutiveErrors = 0
    }

    /// Answers a refused message with `error`; after too many in a row, closes.
    mutating func refuse(_ connection: SignalingConnectionID, _ error: SignalingError,
                         into out: inout [SignalingRouterAction])
    {
        guard var state = connections[connection], !state.closing else { return }
        refusals[error.code, default: 0] += 1
        state.consecutiveErrors += 1
        out.append(.send(connection, .error(error)))
        if state.consecutiveErrors >= limits.maxConsecutiveErrors {
            state.closing = true
            out.append(.send(connection, .error(SignalingError(
                code: .tooManyErrors, message: "\(state.consecutiveErrors) refused messages in a row; closing"))))
            out.append(.close(connection, reason: "too many errors"))
        }
        connections[connection] = state
    }

    /// Spends one message token of `connection`, topping the bucket up for the time passed.
    private mutating func takeToken(_ connection: SignalingConnectionID, now: Instant) -> Bool {
        guard var state = connections[connection] else { return false }
        if let at = state.tokensAt, now > at {
            state.tokens = min(Double(limits.messageBurst), state.tokens + (now - at).seconds * Double(limits.messagesPerSecond))
        }
        state.tokensAt = now
        let allowed = state.tokens >= 1
        if allowed { state.tokens -= 1 }
        connections[connection] = state
        return allowed
    }

    /// Checks a user id, call id, queue name or request id.
    func validIdentifier(_ value: String) -> Bool {
        !value.isEmpty && value.utf8.count <= limits.maxIdentifierBytes
    }

    func identifierError(_ field: String, callId: String? = nil, requestId: String? = nil) -> SignalingError {
        SignalingError(code: .invalidMessage,
                       message: "\(field) must be 1 to \(limits.maxIdentifierBytes) bytes long",
                       callId: callId, requestId: requestId)
    }
}

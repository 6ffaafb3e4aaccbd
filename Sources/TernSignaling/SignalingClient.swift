/// A signaling protocol v1 client over any `SignalingTransport`: registers, sends
/// messages, delivers the server's messages in order on `messages`, and applies two
/// client-side rules by itself (`SignalingClientOptions`): busy rejection and
/// auto-accepting a call from the agent who picked a queue request.
///
/// A call facade builds on it: send `invite`/`accept`/`description`/`candidate`,
/// consume `messages`, and look at `activeCalls`. Connect over WebSocket with
/// `SignalingClient.connect(url:)` from TernSignalingClient, or in memory with
/// `SignalingClient(transport: InMemorySignalingTransport(switchboard:))`.
public actor SignalingClient {
    /// Every message from the server, in order (minus invites auto-rejected as busy).
    /// Finishes when the connection closes.
    public nonisolated let messages: AsyncStream<SignalingMessage>
    private let output: AsyncStream<SignalingMessage>.Continuation
    private let transport: any SignalingTransport
    /// The client-side rules in force.
    public nonisolated let options: SignalingClientOptions

    /// The user this client registered as.
    public private(set) var user: String?
    /// Answered calls this client is a party to (accepted here, or accepted by the callee).
    public private(set) var activeCalls: Set<String> = []
    /// Calls this client invited and that are not answered or ended yet.
    private var outgoingCalls: Set<String> = []
    /// Agents who picked one of our queue requests and whose invite we will accept.
    private var assignedAgents: [String] = []
    private var awaitingRegister = false
    private var registerOutcome: Result<String, SignalingClientError>?
    private var pendingRegister: CheckedContinuation<Result<String, SignalingClientError>, Never>?
    private var isClosed = false

    /// Starts a client on a connected transport.
    public init(transport: any SignalingTransport, options: SignalingClientOptions = SignalingClientOptions()) {
        self.transport = transport
        self.options = options
        let (stream, continuation) = AsyncStream<SignalingMessage>.makeStream()
        messages = stream
        output = continuation
        let incoming = transport.incoming
        Task { [weak self] in
            for await text in incoming {
                guard let self else { return }
                await self.receive(text)
            }
            await self?.transportEnded()
        }
    }

    /// Registers this connection as `user` and waits for `registered`.
    /// Throws `.refused` with the server's error (`badToken`, `tokenExpired`, `alreadyRegistered`, ...).
    public func register(user: String, token: String) async throws(SignalingClientError) {
        guard !awaitingRegister else {
            throw .refused(SignalingError(code: .invalidState, message: "a register is already in progress"))
        }
        awaitingRegister = true
        registerOutcome = nil
        defer { awaitingRegister = false }
        try await send(.register(user: user, token: token))
        // The reply may have arrived while `send` was suspended.
        let result: Result<String, SignalingClientError>
        if let outcome = registerOutcome {
            result = outcome
        } else {
            result = await withCheckedContinuation { pendingRegister = $0 }
        }
        registerOutcome = nil
        self.user = try result.get()
    }

    /// Sends one message, tracking call state for the client-side rules.
    public func send(_ message: SignalingMessage) async throws(SignalingClientError) {
        guard !isClosed else { throw .transport(.closed) }
        switch message {
        case .invite(let invite): outgoingCalls.insert(invite.callId)
        case .accept(let id, _): activeCalls.insert(id)
        case .reject(let id, _, _), .cancel(let id), .hangup(let id): callEnded(id)
        default: break
        }
        do {
            try await transport.send(SignalingCodec.encode(message))
        } catch {
            throw .transport(error)
        }
    }

    /// Closes the connection; `messages` finishes.
    public func close() async {
        guard !isClosed else { return }
        await transport.close()
        transportEnded()
    }

    // MARK: Incoming

    private func receive(_ text: String) async {
        let message: SignalingMessage
        do throws(SignalingError) {
            message = try SignalingCodec.decode(text, maxBytes: .max)
        } catch {
            // Not a message of this protocol version: the consumer hears of it (a description
            // lost here is a leg that never connects), nothing else changes.
            output.yield(.error(SignalingError(code: error.code, message: "undecodable message from the server: \(error.message)")))
            return
        }
        switch message {
        case .registered(let user):
            finishRegister(.success(user))
        case .error(let error):
            if error.callId == nil, error.requestId == nil { finishRegister(.failure(.refused(error))) }
            // A refused invite or accept leaves no call behind (e.g. an accept that lost the race).
            if let id = error.callId, error.code == .notInCall || error.code == .callIdInUse || error.code == .callGone {
                callEnded(id)
            }
        case .resumed(let calls):
            // This connection took the calls over from the user's dropped one.
            for call in calls {
                switch call.state {
                case .answered: activeCalls.insert(call.callId)
                case .ringing: outgoingCalls.insert(call.callId)
                }
            }
        case .invite(let invite):
            if await handleInvite(invite) == false { return }
        case .accept(let id, _):
            if outgoingCalls.remove(id) != nil { activeCalls.insert(id) }
        case .reject(let id, _, _), .cancel(let id), .hangup(let id), .timeout(let id), .answeredElsewhere(let id),
             .rejectedElsewhere(let id):
            callEnded(id)
        case .assigned(_, _, let agent):
            if options.autoAcceptAssignedCalls { assignedAgents.append(agent) }
        default:
            break
        }
        output.yield(message)
    }

    /// Applies busy rejection and auto-accept; `false` if the invite is not delivered.
    private func handleInvite(_ invite: Invite) async -> Bool {
        if let from = invite.from, let index = assignedAgents.firstIndex(of: from) {
            assignedAgents.remove(at: index)
            try? await send(.accept(callId: invite.callId))
            return true
        }
        if let limit = options.maxConcurrentCalls, activeCalls.count >= limit {
            try? await send(.reject(callId: invite.callId, reason: .busy))
            return false
        }
        return true
    }

    private func callEnded(_ id: String) {
        activeCalls.remove(id)
        outgoingCalls.remove(id)
    }

    private func finishRegister(_ outcome: Result<String, SignalingClientError>) {
        guard awaitingRegister else { return }
        if let pending = pendingRegister {
            pendingRegister = nil
            pending.resume(returning: outcome)
        } else if registerOutcome == nil {
            registerOutcome = outcome
        }
    }

    private func transportEnded() {
        isClosed = true
        finishRegister(.failure(.transport(.closed)))
        output.finish()
    }
}

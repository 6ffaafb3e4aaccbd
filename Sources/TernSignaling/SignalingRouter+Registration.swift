public import TernCore

extension SignalingRouter {
    /// `register`: binds the connection to `user`, at once in open mode, otherwise once the
    /// driver's `SignalingTokenVerifier` has accepted the token (`tokenVerified`).
    mutating func register(_ connection: SignalingConnectionID, user: String, token: String,
                           into out: inout [SignalingRouterAction])
    {
        guard validIdentifier(user) else { return refuse(connection, identifierError("user"), into: &out) }
        if let current = connections[connection]?.user {
            guard current.isExactly(user) else {
                return refuse(connection, SignalingError(
                    code: .alreadyRegistered,
                    message: "this connection is registered as \"\(current)\"; open another connection for \"\(user)\""),
                    into: &out)
            }
            accepted(connection)
            return send(.registered(user: user), to: connection, into: &out)
        }
        guard connections[connection]?.verifying == nil else {
            return refuse(connection, SignalingError(
                code: .invalidState, message: "a register is being verified on this connection; wait for registered"),
                into: &out)
        }
        guard verifiesTokens else { return bind(connection, to: user, role: .agent, into: &out) }
        connections[connection]?.verifying = user
        out.append(.verifyToken(connection, user: user, token: token))
    }

    /// The verifier's answer to a `verifyToken` action. Ignored if the connection has gone or
    /// was not waiting for it.
    public mutating func tokenVerified(connection: SignalingConnectionID, user: String,
                                       result: Result<SignalingRole, SignalingError>, now: Instant)
        -> [SignalingRouterAction]
    {
        guard let pending = connections[connection]?.verifying, pending.isExactly(user) else { return [] }
        connections[connection]?.verifying = nil
        var out: [SignalingRouterAction] = []
        switch result {
        case .success(let role): bind(connection, to: user, role: role, into: &out)
        case .failure(let error): refuse(connection, error, into: &out)
        }
        return out
    }

    private mutating func bind(_ connection: SignalingConnectionID, to user: String, role: SignalingRole,
                               into out: inout [SignalingRouterAction])
    {
        let key = ExactKey(user)
        let devices = devicesByUser[key, default: []]
        guard devices.count < limits.maxDevicesPerUser else {
            return refuse(connection, SignalingError(
                code: .tooManyDevices,
                message: "\"\(user)\" already has \(devices.count) connections (limit \(limits.maxDevicesPerUser))"),
                into: &out)
        }
        connections[connection]?.user = user
        connections[connection]?.role = role
        connections[connection]?.registerDeadline = nil
        devicesByUser[key] = (devices + [connection]).sorted()
        accepted(connection)
        send(.registered(user: user), to: connection, into: &out)
        ringPending(connection, user: user, into: &out)
    }
}

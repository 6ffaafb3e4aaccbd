extension SignalingRouter {
    /// `register`: binds the connection to `user` once the token checks out.
    mutating func register(_ connection: SignalingConnectionID, user: String, token: String,
                           into out: inout [SignalingRouterAction])
    {
        guard validIdentifier(user) else { return refuse(connection, identifierError("user"), into: &out) }
        if let current = connections[connection]?.user {
            guard current == user else {
                return refuse(connection, SignalingError(
                    code: .alreadyRegistered,
                    message: "this connection is registered as \"\(current)\"; open another connection for \"\(user)\""),
                    into: &out)
            }
            accepted(connection)
            return send(.registered(user: user), to: connection, into: &out)
        }
        if let secret, !SignalingToken.isValid(token, user: user, secret: secret) {
            return refuse(connection, SignalingError(
                code: .unauthorized,
                message: "token is not lowercase hex HMAC-SHA256(secret, \"\(user)\")"), into: &out)
        }
        let devices = devicesByUser[user, default: []]
        guard devices.count < limits.maxDevicesPerUser else {
            return refuse(connection, SignalingError(
                code: .tooManyDevices,
                message: "\"\(user)\" already has \(devices.count) connections (limit \(limits.maxDevicesPerUser))"),
                into: &out)
        }
        connections[connection]?.user = user
        connections[connection]?.registerDeadline = nil
        devicesByUser[user] = (devices + [connection]).sorted()
        accepted(connection)
        send(.registered(user: user), to: connection, into: &out)
    }
}

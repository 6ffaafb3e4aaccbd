extension ICETransport {
    /// One `TurnTLSBridge` per `turns:` server, in configuration order (Docs/ICE.md, "TURN over TLS").
    /// `configured` keeps the host names as written (SNI, certificate check); `resolved` has the
    /// numeric addresses the bridges connect to.
    static func startTLSBridges(configured: [ICEServer], resolved: [ICEServer], options: TurnTLSOptions,
                                loop: GLibEventLoop) throws(ICEError) -> [TurnTLSBridge] {
        var bridges: [TurnTLSBridge] = []
        for (server, numeric) in zip(configured, resolved) where server.kind == .turnTLS {
            bridges.append(try TurnTLSBridge.start(server: server, address: numeric.host, options: options, loop: loop))
        }
        return bridges
    }

    /// The servers as libnice gets them: each `turns:` server replaced by TURN/TCP to its bridge.
    static func agentServers(_ resolved: [ICEServer], bridges: [TurnTLSBridge]) -> [ICEServer] {
        var remaining = bridges[...]
        return resolved.map { server in
            guard server.kind == .turnTLS, let bridge = remaining.popFirst() else { return server }
            return ICEServer(kind: .turnTCP, host: bridge.listenAddress, port: bridge.port,
                             username: server.username, credential: server.credential)
        }
    }

    /// Traces each bridge and routes its events into this transport (weakly: a dropped
    /// transport is not kept alive by its bridges).
    func connectTLSBridges() {
        for bridge in agent.bridges {
            let local = bridge.listenAddress.contains(":") ? "[\(bridge.listenAddress)]:\(bridge.port)"
                : "\(bridge.listenAddress):\(bridge.port)"
            if !bridge.verifies {
                logger.warning("\(bridge.server): TLS certificate verification is off (TurnTLSOptions.insecureSkipVerify)")
            }
            state.withLock { record(.turnTLSBridge(server: bridge.server, bridge: local, verifiesCertificate: bridge.verifies), in: &$0) }
            bridge.setReporter { [weak self] server, event in self?.turnTLSEvent(server, event) }
        }
    }

    /// A bridge connection's outcome (loop thread).
    private func turnTLSEvent(_ server: ICEServer, _ event: TurnTLSBridge.Event) {
        switch event {
        case let .established(version, cipher):
            logger.debug("\(server): TLS \(version) \(cipher)")
            state.withLock { record(.turnTLSEstablished(server: server, version: version, cipher: cipher), in: &$0) }
        case let .failed(reason):
            logger.warning("\(server): TLS failed, no relay candidate from it: \(reason)")
            state.withLock { record(.turnTLSFailed(server: server, reason: reason), in: &$0) }
        }
    }
}

internal import CNice

extension ICETransport {
    /// Replaces host names by numeric addresses (libnice accepts only IP literals).
    static func resolveServers(_ servers: [ICEServer]) throws(ICEError) -> [ICEServer] {
        var resolved: [ICEServer] = []
        for var server in servers {
            guard let numeric = AddressResolution.numericAddress(server.host) else {
                throw .invalidConfiguration(reason: "cannot resolve \(server.kind.rawValue) server host '\(server.host)'")
            }
            server.host = numeric
            resolved.append(server)
        }
        return resolved
    }

    /// Agent-wide properties; called before the stream exists.
    static func configure(_ agent: NiceAgentHandle, _ c: ICEConfiguration, role: ICERole) throws(ICEError) {
        let obj = agent.object
        tern_g_object_set_boolean(obj, "upnp", tern_g_false)
        if Self.libniceHasTernPatch {
            if c.sendsOnValidPairs { tern_g_object_set_boolean(obj, Self.sendOnValidPairProperty, tern_g_true) }
            if c.firstCheckAtOnce { tern_g_object_set_boolean(obj, Self.firstCheckAtOnceProperty, tern_g_true) }
        }
        tern_g_object_set_boolean(obj, "ice-udp", tern_g_true)
        tern_g_object_set_boolean(obj, "ice-tcp", c.iceTCP ? tern_g_true : tern_g_false)
        tern_g_object_set_boolean(obj, "controlling-mode", role == .controlling ? tern_g_true : tern_g_false)
        // libnice's force-relay drops host/srflx gathering and peer-reflexive local candidates;
        // `niceNewCandidate` also refuses to signal anything but relay under this policy.
        tern_g_object_set_boolean(obj, "force-relay", c.transportPolicy == .relay ? tern_g_true : tern_g_false)
        let pacing = max(1, min(c.stunPacing.milliseconds, Double(UInt32.max)))
        tern_g_object_set_uint(obj, "stun-pacing-timer", guint(pacing))
        if let t = c.stunInitialTimeout {
            tern_g_object_set_uint(obj, "stun-initial-timeout", guint(max(1, min(t.milliseconds, 60_000))))
        }
        if let n = c.stunMaxRetransmissions { tern_g_object_set_uint(obj, "stun-max-retransmissions", n) }
        var addresses = c.allowedAddresses
        for name in c.allowedInterfaces {
            let found: String? = name.withCString { cName in
                guard let ip = nice_interfaces_get_ip_for_interface(UnsafeMutablePointer(mutating: cName)) else { return nil }
                defer { g_free(ip) }
                return String(cString: ip)
            }
            guard let found else {
                throw .invalidConfiguration(reason: "allowed interface '\(name)' does not exist or has no IPv4 address")
            }
            if !addresses.contains(found) { addresses.append(found) }
        }
        for text in addresses {
            var address = NiceAddress()
            nice_address_init(&address)
            guard nice_address_set_from_string(&address, text) != 0 else {
                throw .invalidConfiguration(reason: "allowed address '\(text)' is not an IP address")
            }
            guard nice_agent_add_local_address(agent.pointer, &address) != 0 else {
                throw .rejected(operation: "nice_agent_add_local_address(\(text))", reason: "refused")
            }
        }
    }

    /// Per-stream settings: STUN server, TURN servers, port range.
    static func configureStream(_ agent: NiceAgentHandle, stream: guint, _ c: ICEConfiguration,
                                servers: [ICEServer]) throws(ICEError) {
        if let stun = servers.first(where: { $0.kind == .stun }) {
            tern_g_object_set_string(agent.object, "stun-server", stun.host)
            tern_g_object_set_uint(agent.object, "stun-server-port", guint(stun.port))
        }
        for turn in servers where turn.kind != .stun {
            let type: NiceRelayType
            switch turn.kind {
            case .turnTCP: type = NICE_RELAY_TYPE_TURN_TCP
            case .turnUDP, .stun: type = NICE_RELAY_TYPE_TURN_UDP
            case .turnTLS:
                // Never NICE_RELAY_TYPE_TURN_TLS: libnice 0.1.21 would send plain TCP there.
                // `agentServers` replaced every `turns:` server by its TLS bridge.
                throw .invalidConfiguration(reason: "\(turn): turns: server without its TLS bridge")
            }
            let ok = nice_agent_set_relay_info(agent.pointer, stream, componentID, turn.host, guint(turn.port),
                                               turn.username ?? "", turn.credential ?? "", type)
            guard ok != 0 else { throw .rejected(operation: "nice_agent_set_relay_info(\(turn))", reason: "refused") }
        }
        if let range = c.portRange {
            nice_agent_set_port_range(agent.pointer, stream, componentID, guint(range.lowerBound), guint(range.upperBound))
        }
    }

    /// The boolean property of Tern's libnice patch (Patches/libnice-0.1.21-tern.patch) that
    /// lets data leave on the best valid pair before one is selected; its signal
    /// "new-valid-pair" says when there is one.
    static let sendOnValidPairProperty = "send-on-valid-pair"
    /// The patch's property that sends the first check without waiting one Ta.
    static let firstCheckAtOnceProperty = "first-check-at-once"

    /// Whether the libnice loaded in this process has Tern's patch (Scripts/libnice): without it,
    /// `ICEConfiguration.sendsOnValidPairs` and `firstCheckAtOnce` have no effect.
    public static let libniceHasTernPatch: Bool =
        tern_nice_agent_class_has_property(sendOnValidPairProperty) != 0
            && tern_nice_agent_class_has_property(firstCheckAtOnceProperty) != 0

    /// Connects the signals and the receive callback; the C side gets one retained context.
    func connectCallbacks() {
        let context = Unmanaged.passRetained(NiceCallbackContext(self))
        let data = context.toOpaque()
        let obj = agent.object
        var ids: [gulong] = [
            tern_g_signal_connect(obj, "candidate-gathering-done", NiceDoor.gCallback(NiceDoor.gatheringDone), data),
            tern_g_signal_connect(obj, "new-candidate-full", NiceDoor.gCallback(NiceDoor.newCandidate), data),
            tern_g_signal_connect(obj, "component-state-changed", NiceDoor.gCallback(NiceDoor.componentState), data),
            tern_g_signal_connect(obj, "new-selected-pair-full", NiceDoor.gCallback(NiceDoor.selectedPair), data),
        ]
        if sendsOnValidPairs {
            ids.append(tern_g_signal_connect(obj, "new-valid-pair", NiceDoor.gCallback(NiceDoor.validPair), data))
        }
        nice_agent_attach_recv(agent.pointer, streamID, Self.componentID, agent.loop.context, NiceDoor.receive, data)
        if let pairCheckLog { NiceDebugTap.register(agent: agent.pointer, log: pairCheckLog) }
        state.withLock {
            $0.signalHandlers = ids
            $0.callbackContext = context
        }
    }
}

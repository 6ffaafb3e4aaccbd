internal import CNice

extension ICETransport {
    /// Closes the transport: state `closed`, events finish, sends fail, nothing more is
    /// delivered. Safe from any thread, including from the receive handler (the release of
    /// the callback context is then deferred until the current callback has returned).
    /// Idempotent.
    public func close() {
        shutDown(emitEvents: true)
    }

    func shutDown(emitEvents: Bool) {
        let first = state.withLock { s -> Bool in
            guard !s.closed else { return false }
            s.closed = true
            s.transportState = .closed
            record(.stateChanged(state: .closed, libniceState: "closed"), in: &s)
            if emitEvents { emit(.stateChanged(.closed)) }
            return true
        }
        guard first else { return }
        continuation.finish()
        receiveHandler.withLock { $0 = nil }
        teardown()
    }

    /// Disconnects every callback, then releases the callback context exactly once, after a
    /// barrier on the loop thread (see `NiceCallbacks.swift`).
    private func teardown() {
        // Wait out in-flight sends and refuse new ones.
        sendGate.withLock { $0 = false }
        if pairCheckLog != nil { NiceDebugTap.unregister(agent: agent.pointer) }
        let (ids, context) = state.withLock { s -> ([gulong], Unmanaged<NiceCallbackContext>?) in
            defer { s.signalHandlers = []; s.callbackContext = nil }
            return (s.signalHandlers, s.callbackContext)
        }
        let agent = self.agent
        let stream = streamID
        let detach = {
            for id in ids { g_signal_handler_disconnect(agent.object, id) }
            nice_agent_attach_recv(agent.pointer, stream, Self.componentID, agent.loop.context, nil, nil)
            nice_agent_remove_stream(agent.pointer, stream)
            // No new TLS bridge connections; open ones end when libnice closes them or when the
            // agent is finalised (NiceAgentHandle), after the TURN deallocations went through.
            for bridge in agent.bridges { bridge.stopListening() }
        }
        let loop = agent.loop
        guard let context else { return }
        let box = ContextRelease(context)
        if loop.isCurrentThread {
            // We are inside a libnice callback that may still be using the context.
            detach()
            if !loop.post({ box.release() }) { box.release() }
        } else if loop.sync(detach) != nil {
            box.release() // the loop ran `detach`: no callback is running, none can start.
        } else {
            loop.waitUntilExited()
            detach()
            box.release()
        }
    }
}

/// The retained callback context on its way to its single release.
private struct ContextRelease: @unchecked Sendable {
    let context: Unmanaged<NiceCallbackContext>
    init(_ context: Unmanaged<NiceCallbackContext>) { self.context = context }
    func release() { context.release() }
}

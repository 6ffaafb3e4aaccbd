internal import CNice

/// Owns one `NiceAgent` reference, the loop it runs on, and the agent's `turns:` bridges.
///
/// `deinit` closes the agent on its loop thread with `nice_agent_close_async` (which
/// deallocates TURN allocations on the server instead of leaving them to expire) and drops
/// the last agent reference in the completion callback. Until then the pending close keeps
/// the `GLibEventLoop` alive, so the loop always outlives the agent. The TLS bridges
/// (`TurnTLSBridge`) are closed in that completion too, after libnice's own TCP connections to
/// them are gone (so TURN deallocations made while closing still get through).
final class NiceAgentHandle: @unchecked Sendable {
    // Immutable after init; libnice's API is internally locked; the bridges are loop-confined.
    let pointer: OpaquePointer
    let loop: GLibEventLoop
    let bridges: [TurnTLSBridge]

    init(pointer: OpaquePointer, loop: GLibEventLoop, bridges: [TurnTLSBridge] = []) {
        self.pointer = pointer
        self.loop = loop
        self.bridges = bridges
    }

    /// The agent as the `gpointer` GObject functions take.
    var object: gpointer { UnsafeMutableRawPointer(pointer) }

    deinit {
        let closing = Unmanaged.passRetained(AgentClosing(agent: object, loop: loop, bridges: bridges))
        let agent = pointer
        let begin = ClosingStart(agent: agent, closing: closing)
        // On the loop thread we may be inside one of this agent's callbacks: start later.
        let started = loop.isCurrentThread ? loop.post { begin.run() } : loop.sync { begin.run() } != nil
        if !started {
            // The loop is gone: nothing of the agent can run any more.
            loop.waitUntilExited()
            closing.takeRetainedValue().finish()
        }
    }
}

/// What the close completion needs: the agent to unref, the bridges to close, and the loop to
/// keep alive until then.
private final class AgentClosing: @unchecked Sendable {
    // Touched only on the loop thread (or after it exited).
    let agent: gpointer
    let loop: GLibEventLoop
    let bridges: [TurnTLSBridge]
    init(agent: gpointer, loop: GLibEventLoop, bridges: [TurnTLSBridge]) {
        self.agent = agent
        self.loop = loop
        self.bridges = bridges
    }
    func finish() {
        g_object_unref(agent)
        for bridge in bridges { bridge.close() }
    }
}

/// Carries the agent and its pending close to the loop thread; used there exactly once.
private struct ClosingStart: @unchecked Sendable {
    let agent: OpaquePointer
    let closing: Unmanaged<AgentClosing>
    func run() { nice_agent_close_async(agent, agentClosed, closing.toOpaque()) }
}

/// `GAsyncReadyCallback`: `void (*)(GObject *source, GAsyncResult *res, gpointer data)`.
private let agentClosed: GAsyncReadyCallback = { _, _, data in
    guard let data else { return }
    Unmanaged<AgentClosing>.fromOpaque(data).takeRetainedValue().finish()
}

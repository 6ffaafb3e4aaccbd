internal import CNice

// The one door from libnice into Swift.
//
// Every libnice signal we connect and the receive callback are the
// `@convention(c)` functions below. They capture nothing; their `user_data` is
// an `Unmanaged<NiceCallbackContext>` created with `passRetained` in
// `ICETransport.init` and released exactly once in `ICETransport.teardown()`,
// after the handlers are disconnected and the receive callback detached on the
// loop thread (that hop is the barrier: the loop runs one callback at a time,
// so none is running when it executes, and none can start afterwards).
//
// Threading: all of them run on the transport's `GLibEventLoop` thread, because
// every libnice call that can emit one of these signals is made from that
// thread (`ICETransport.onLoop`). `nice_agent_send` from other threads does not
// emit them for UDP/TCP data, and is additionally fenced by the send gate during
// teardown.
//
// Each C signature is copied from libnice 0.1.21 `agent.c` signal docs next to
// its trampoline: GLib does not check them.

/// What the C side holds: a weak reference, so an `ICETransport` the owner dropped
/// deinitialises (and tears down) even while libnice still has our pointer.
final class NiceCallbackContext: @unchecked Sendable {
    // Written once in init; Swift weak references are safe to load from any thread.
    private(set) weak var transport: ICETransport?
    init(_ transport: ICETransport) { self.transport = transport }

    static func enter(_ data: gpointer?) -> ICETransport? {
        guard let data else { return nil }
        return Unmanaged<NiceCallbackContext>.fromOpaque(data).takeUnretainedValue().transport
    }
}

enum NiceDoor {
    /// `void (*)(NiceAgent *agent, guint stream_id, gpointer user_data)` — "candidate-gathering-done".
    static let gatheringDone: @convention(c) (OpaquePointer?, guint, gpointer?) -> Void = { _, stream, data in
        NiceCallbackContext.enter(data)?.niceGatheringDone(stream: stream)
    }

    /// `void (*)(NiceAgent *agent, NiceCandidate *candidate, gpointer user_data)` — "new-candidate-full".
    static let newCandidate: @convention(c) (OpaquePointer?, UnsafeMutablePointer<NiceCandidate>?, gpointer?) -> Void = {
        _, candidate, data in
        guard let candidate else { return }
        NiceCallbackContext.enter(data)?.niceNewCandidate(candidate)
    }

    /// `void (*)(NiceAgent *agent, guint stream_id, guint component_id, guint state, gpointer user_data)`
    /// — "component-state-changed".
    static let componentState: @convention(c) (OpaquePointer?, guint, guint, guint, gpointer?) -> Void = {
        _, stream, component, state, data in
        NiceCallbackContext.enter(data)?.niceComponentState(stream: stream, component: component, state: state)
    }

    /// `void (*)(NiceAgent *agent, guint stream_id, guint component_id, NiceCandidate *lcandidate,
    /// NiceCandidate *rcandidate, gpointer user_data)` — "new-selected-pair-full".
    static let selectedPair: @convention(c) (OpaquePointer?, guint, guint, UnsafeMutablePointer<NiceCandidate>?,
                                             UnsafeMutablePointer<NiceCandidate>?, gpointer?) -> Void = {
        _, stream, component, local, remote, data in
        guard let local, let remote else { return }
        NiceCallbackContext.enter(data)?.niceSelectedPair(stream: stream, component: component, local: local, remote: remote)
    }

    /// Same signature as "new-selected-pair-full" — "new-valid-pair" (Tern's libnice patch).
    static let validPair: @convention(c) (OpaquePointer?, guint, guint, UnsafeMutablePointer<NiceCandidate>?,
                                          UnsafeMutablePointer<NiceCandidate>?, gpointer?) -> Void = {
        _, stream, component, local, remote, data in
        guard let local, let remote else { return }
        NiceCallbackContext.enter(data)?.niceValidPair(stream: stream, component: component, local: local, remote: remote)
    }

    /// `NiceAgentRecvFunc`: `void (*)(NiceAgent *agent, guint stream_id, guint component_id, guint len,
    /// gchar *buf, gpointer user_data)`.
    static let receive: NiceAgentRecvFunc = { _, _, _, len, buf, data in
        guard let buf, let transport = NiceCallbackContext.enter(data) else { return }
        transport.niceReceive(UnsafeRawBufferPointer(start: buf, count: Int(len)))
    }

    /// A typed trampoline as the untyped `GCallback` GLib wants.
    static func gCallback<F>(_ function: F) -> GCallback {
        unsafeBitCast(function, to: GCallback.self)
    }
}

public import TernCore

/// The signaling connection's lifecycle with automatic reconnect.
///
/// Protocol v1 cannot rejoin a call after the connection drops (the server ends the
/// calls of a closed connection: Docs/SIGNALING.md, "Not in v1"), so losing the
/// connection ends the active call with `signalingLost` at once; the client then
/// reconnects on `CallConfiguration.reconnectBackoff` and new calls work again once
/// it is `running`.
extension CallClient {
    /// `stopped`/`failed` → `starting`: asks the driver to connect.
    public mutating func start(now: Instant) throws(CallError) -> [CallOutput] {
        guard state == .stopped || state == .failed else {
            throw .invalidClientState(operation: "start", state: state)
        }
        var out: [CallOutput] = []
        reconnectAttempts = 0
        nextReconnect = nil
        setState(.starting, &out)
        out.append(.action(.connectSignaling))
        return out
    }

    /// Hangs up the active call (its message goes out first), disconnects, `stopped`.
    public mutating func stop(now: Instant) -> [CallOutput] {
        var out: [CallOutput] = []
        if isOnCall, var session = currentCall {
            if state == .running {
                do { try session.hangUp(&out) } catch { session.end(.localHangUp, &out) }
            }
            session.end(.localHangUp, &out)
            currentCall = session
        }
        nextReconnect = nil
        dropQueueRequests(reason: "client stopped", &out)
        if state != .stopped && state != .failed && state != .paused { out.append(.action(.disconnectSignaling)) }
        setState(.stopped, &out)
        return out
    }

    /// The driver connected and registered: `running`.
    public mutating func signalingConnected(now: Instant) -> [CallOutput] {
        guard state == .starting || state == .resuming else { return [] }
        var out: [CallOutput] = []
        reconnectAttempts = 0
        nextReconnect = nil
        setState(.running, &out)
        return out
    }

    /// A connection attempt failed: the first one fails the client; a reconnect
    /// attempt waits for the next backoff step, until `maxReconnectAttempts`.
    public mutating func signalingConnectFailed(now: Instant) -> [CallOutput] {
        var out: [CallOutput] = []
        switch state {
        case .starting:
            setState(.failed, &out)
        case .resuming:
            scheduleReconnect(now: now, &out)
        default:
            break
        }
        return out
    }

    /// The running connection dropped: the active call ends (`signalingLost`), `paused`.
    public mutating func signalingLost(now: Instant) -> [CallOutput] {
        var out: [CallOutput] = []
        switch state {
        case .running:
            if var session = currentCall, session.isActive {
                session.end(.signalingLost, &out)
                currentCall = session
            }
            dropQueueRequests(reason: "signaling connection lost", &out)
            reconnectAttempts = 0
            scheduleReconnect(now: now, &out)
        case .starting, .resuming:
            return signalingConnectFailed(now: now)
        default:
            break
        }
        return out
    }

    private mutating func scheduleReconnect(now: Instant, _ out: inout [CallOutput]) {
        guard reconnectAttempts < configuration.maxReconnectAttempts else {
            nextReconnect = nil
            setState(.failed, &out)
            return
        }
        nextReconnect = now + configuration.backoff(attempt: reconnectAttempts + 1)
        setState(.paused, &out)
    }
}

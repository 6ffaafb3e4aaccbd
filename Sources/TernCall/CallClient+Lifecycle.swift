public import TernCore
import TernSignaling

/// The signaling connection's lifecycle with automatic reconnect.
///
/// A lost connection does not end an answered call (or an outgoing one still ringing): the
/// server holds it (`SignalingLimits.resumeWindowMs`), the client reconnects on
/// `CallConfiguration.reconnectBackoff` and sends `resume` for it once registered; the call ends
/// with `signalingLost` only if the server answers `callGone`, `signalingResumeTimeout` passes or
/// the client gives up reconnecting. Other calls (an incoming one still ringing) end at once.
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
        if var group = currentGroup, group.isActive {
            if state == .running { try? group.quit(&out) }
            group.end(.localHangUp, &out)
            currentGroup = group
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
        let resuming = [currentCall.flatMap { $0.isAwaitingResume ? $0.callId : nil },
                        currentGroup.flatMap { $0.isAwaitingResume ? $0.callId : nil }].compactMap { $0 }
        if !resuming.isEmpty { out.append(.send(.resume(callIds: resuming))) }
        out += pushStatusRequests()
        return out
    }

    /// The server's `resumed`: the calls it names are taken over by the new connection.
    mutating func signalingResumed(_ calls: [ResumedCall], now: Instant) -> [CallOutput] {
        var out: [CallOutput] = []
        if let callId = currentGroup?.callId, calls.contains(where: { $0.callId == callId }) {
            out += ifGroup(callId) { group, out in group.signalingResumed(&out) }
        }
        guard let callId = currentCall?.callId, calls.contains(where: { $0.callId == callId }) else { return out }
        return out + ifCall(callId) { session, out in session.signalingResumed(&out) }
    }

    /// The server's `callGone` for a call `resume` named: it ended while the connection was away.
    mutating func signalingCallGone(callId: String, now: Instant) -> [CallOutput] {
        ifGroup(callId) { group, out in group.signalingResumeFailed(&out) }
            + ifCall(callId) { session, out in session.signalingResumeFailed(&out) }
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

    /// The running connection dropped: `paused`; the active call waits for a `resume` if the
    /// server holds it, and ends (`signalingLost`) otherwise.
    public mutating func signalingLost(now: Instant) -> [CallOutput] {
        var out: [CallOutput] = []
        switch state {
        case .running:
            if var session = currentCall, session.isActive {
                if session.isResumable {
                    session.awaitResume(now: now, &out)
                } else {
                    session.end(.signalingLost, &out)
                }
                currentCall = session
            }
            if var group = currentGroup, group.isActive {
                if group.isResumable { group.awaitResume(now: now, &out) } else { group.end(.signalingLost, &out) }
                currentGroup = group
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
            if var session = currentCall {
                session.signalingResumeFailed(&out)
                currentCall = session
            }
            if var group = currentGroup {
                group.signalingResumeFailed(&out)
                currentGroup = group
            }
            setState(.failed, &out)
            return
        }
        nextReconnect = now + configuration.backoff(attempt: reconnectAttempts + 1)
        setState(.paused, &out)
    }
}

import TernCore

/// The transport half of a call: `CONNECTING` → `IN_PROGRESS`, and ICE restarts while
/// `reconnecting` (W3C `restartICE()`, RFC 8445 §9). Only the caller restarts, since
/// it makes every offer; the callee waits for the restart offer.
extension CallSession {
    /// The driver's report of the peer connection's state.
    mutating func transport(_ event: CallTransportEvent, now: Instant, _ out: inout [CallOutput]) {
        switch (state, event) {
        case (.connecting, .connected):
            connectDeadline = nil
            enter(.inProgress, &out)
            setStatus(.connected, &out)
        case (.connecting, .failed):
            out.append(.send(.hangup(callId: callId)))
            end(.connectFailed, &out)
        case (.inProgress, .connected):
            guard connectionStatus == .reconnecting else { return }
            reconnect = nil
            setStatus(.connected, &out)
        case (.inProgress, .disconnected), (.inProgress, .failed):
            guard reconnect == nil else { return }
            reconnect = ReconnectAttempt(deadline: now + configuration.reconnectTimeout)
            setStatus(.reconnecting, &out)
            if role == .caller, configuration.maxICERestarts > 0 { restartICE(now: now, &out) }
        default:
            return // `disconnected` while connecting may recover; the connect timer bounds it
        }
    }

    private mutating func setStatus(_ status: CallConnectionStatus, _ out: inout [CallOutput]) {
        guard connectionStatus != status else { return }
        connectionStatus = status
        out.append(.connectionStatusChanged(callId: callId, txCode: txCode, status: status))
    }

    private mutating func restartICE(now: Instant, _ out: inout [CallOutput]) {
        guard var attempt = reconnect else { return }
        attempt.restarts += 1
        attempt.nextRestart = now + configuration.iceRestartInterval
        reconnect = attempt
        out.append(.action(.restartICE(callId: callId)))
    }

    /// While reconnecting: the next restart, or the end when the attempts or the time are used up.
    mutating func handleReconnectTimeout(now: Instant, _ out: inout [CallOutput]) {
        guard let attempt = reconnect else { return }
        if now >= attempt.deadline {
            out.append(.send(.hangup(callId: callId)))
            end(.disconnected, &out)
        } else if let next = attempt.nextRestart, now >= next {
            if attempt.restarts < configuration.maxICERestarts {
                restartICE(now: now, &out)
            } else {
                out.append(.send(.hangup(callId: callId)))
                end(.disconnected, &out)
            }
        }
    }
}

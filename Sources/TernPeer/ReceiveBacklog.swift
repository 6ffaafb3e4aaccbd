import Synchronization

/// Data-channel bytes handed to the application's `DataChannel.events` and not yet taken from
/// them, for one peer connection: receive flow control (RFC 8831 §6.6 leaves it to SCTP).
///
/// While the backlog is at `limit`, the transport stops taking messages from the SCTP
/// association, where the ones still queued count against the receive window it advertises,
/// so the peer stops sending. When the application has read the backlog down to half, the
/// channel that saw it asks its transport to resume (`DataChannelTransport.resumeReceiving`).
final class ReceiveBacklog: Sendable {
    let limit: Int
    private struct State {
        var bytes = 0
        var throttled = false
    }
    private let state = Mutex(State())

    init(limit: Int) { self.limit = max(1, limit) }

    /// Bytes handed over and not yet read.
    var bytes: Int { state.withLock { $0.bytes } }

    /// Whether another message may be handed over now; if not, the backlog remembers that it
    /// held one back, so the next `release` that brings it to half says to resume.
    func admits() -> Bool {
        state.withLock { state in
            if state.bytes < limit { return true }
            state.throttled = true
            return false
        }
    }

    /// A message of `bytes` was handed over.
    func add(_ bytes: Int) { state.withLock { $0.bytes += bytes } }

    /// `bytes` were read (or dropped with their channel); true when the transport held messages
    /// back and should take them now.
    func release(_ bytes: Int) -> Bool {
        state.withLock { state in
            state.bytes = max(0, state.bytes - bytes)
            guard state.throttled, state.bytes <= limit / 2 else { return false }
            state.throttled = false
            return true
        }
    }
}

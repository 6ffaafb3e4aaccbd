import Synchronization
import TernSignaling

/// Where `tern peer`'s agent connects: the connection made at start-up first, then, after each
/// lost connection, the `--signal` URLs in turn (the one after the last tried first), so a
/// client of a node that died moves to the next node.
final class SignalingURLRotation: Sendable {
    private struct State: ~Copyable {
        var first: SignalingClient?
        var next = 1
    }

    let urls: [String]
    private let state: Mutex<State>

    init(urls: [String], first: SignalingClient?) {
        self.urls = urls
        state = Mutex(State(first: first))
    }

    /// The start-up connection, once.
    func takeFirst() -> SignalingClient? { state.withLock { $0.first.take() } }

    /// The next URL to try.
    func nextURL() -> String {
        state.withLock { state in
            defer { state.next += 1 }
            return urls[state.next % urls.count]
        }
    }
}

import TernCore
import TernPeer
import TernSDP

/// Two peer connections on loopback with signaling done in-process: descriptions and trickled
/// candidates are handed across as a signaling server would.
struct PeerPair {
    let caller: PeerConnection
    let callee: PeerConnection

    init(configuration: PeerConfiguration = .loopback) throws {
        caller = try PeerConnection(configuration: configuration)
        callee = try PeerConnection(configuration: configuration)
    }

    init(caller: PeerConnection, callee: PeerConnection) {
        self.caller = caller
        self.callee = callee
    }

    /// Forwards each side's trickled candidates to the other side, as a signaling channel would.
    /// Returns the tasks that watch the callee's channels and tracks through `onEvent`.
    ///
    /// A candidate is handed over only once the other side has applied the description it
    /// belongs to (its ufrag is in that side's remote description): a real signaling channel
    /// carries the description first, and `addICECandidate` refuses a candidate that comes
    /// before it (W3C). Forwarding at once raced the test's own negotiation: under load the
    /// candidates arrived first, were refused, and both agents sat at ICE `new` for good.
    func startTrickle(onCaller: @escaping @Sendable (PeerConnectionEvent) -> Void = { _ in },
                      onCallee: @escaping @Sendable (PeerConnectionEvent) -> Void = { _ in }) -> [Task<Void, Never>] {
        let caller = self.caller, callee = self.callee
        let forward: @Sendable (PeerConnection, PeerConnection, @escaping @Sendable (PeerConnectionEvent) -> Void) -> Task<Void, Never> = { from, to, observe in
            Task {
                var lastUfrag: String?
                for await event in from.events {
                    if case let .iceCandidate(candidate) = event {
                        let ufrag = candidate?.usernameFragment ?? lastUfrag
                        lastUfrag = ufrag
                        _ = await eventually { to.hasRemoteDescription(withUfrag: ufrag) }
                        try? await to.addICECandidate(candidate)
                    }
                    observe(event)
                }
            }
        }
        return [forward(caller, callee, onCaller), forward(callee, caller, onCallee)]
    }

    /// One offer/answer exchange started by the caller.
    func negotiate() async throws {
        let offer = try await caller.createOffer()
        try await caller.setLocalDescription(offer)
        try await callee.setRemoteDescription(offer)
        let answer = try await callee.createAnswer()
        try await callee.setLocalDescription(answer)
        try await caller.setRemoteDescription(answer)
    }

    func close() {
        caller.close()
        callee.close()
    }

    /// Both sides' states and ICE traces, for a failure message when a pair does not connect.
    var diagnosis: String {
        """
        ICE \(caller.iceConnectionState)/\(callee.iceConnectionState), \
        connection \(caller.connectionState)/\(callee.connectionState), \
        signaling \(caller.signalingState)/\(callee.signalingState)
        caller ICE trace:
        \(caller.iceTrace.map(String.init(describing:)) ?? "(no ICE transport)")
        callee ICE trace:
        \(callee.iceTrace.map(String.init(describing:)) ?? "(no ICE transport)")
        """
    }
}

extension PeerConnection {
    /// Whether the remote description applied carries `ufrag` (any description when nil).
    func hasRemoteDescription(withUfrag ufrag: String?) -> Bool {
        guard let sdp = remoteDescription?.sdp else { return false }
        guard let ufrag else { return true }
        return sdp.contains("a=ice-ufrag:\(ufrag)\r\n")
    }
}

/// Waits until `condition` holds, polling every 10 ms, for at most `timeout` worth of polls.
/// A bound on waiting for real sockets, not an assertion about speed. It counts polls, not
/// wall-clock time, because a full parallel test run on 2 cores can starve this task and the
/// tasks that forward candidates for over 30 s (seen in CI); the wall clock caps it at 4 × `timeout`.
func eventually(timeout: Duration = .seconds(30), _ condition: @Sendable () -> Bool) async -> Bool {
    let interval = Duration.milliseconds(10)
    let cap = ContinuousClock.now + timeout * 4
    var polls = Int(timeout / interval)
    while polls > 0, ContinuousClock.now < cap, !Task.isCancelled {
        if condition() { return true }
        try? await Task.sleep(for: interval)
        polls -= 1
    }
    return condition()
}

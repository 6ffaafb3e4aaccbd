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
    func startTrickle(onCaller: @escaping @Sendable (PeerConnectionEvent) -> Void = { _ in },
                      onCallee: @escaping @Sendable (PeerConnectionEvent) -> Void = { _ in }) -> [Task<Void, Never>] {
        let caller = self.caller, callee = self.callee
        let forward: @Sendable (PeerConnection, PeerConnection, @escaping @Sendable (PeerConnectionEvent) -> Void) -> Task<Void, Never> = { from, to, observe in
            Task {
                for await event in from.events {
                    if case let .iceCandidate(candidate) = event { try? await to.addIceCandidate(candidate) }
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
}

/// Waits until `condition` holds, polling every 10 ms, for at most `timeout`.
/// A bound on waiting for real sockets, not an assertion about speed; generous because a full
/// parallel test run on 2 cores can starve the tasks that forward candidates for seconds.
func eventually(timeout: Duration = .seconds(30), _ condition: @Sendable () -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while clock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

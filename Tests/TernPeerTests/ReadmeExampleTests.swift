import Testing
import TernPeer

/// The README's usage example, verbatim in the body, so the documentation never rots.
@Suite("README example")
struct ReadmeExampleTests {
    @Test("the README's two-peer data channel example compiles and opens the channel")
    func readmeExampleRuns() async throws {
        let caller = try PeerConnection(configuration: .loopback)
        let callee = try PeerConnection(configuration: .loopback)
        defer { caller.close(); callee.close() }

        let channel = try caller.createDataChannel("chat")
        let offer = try await caller.createOffer()
        try await caller.setLocalDescription(offer)
        try await callee.setRemoteDescription(offer)
        let answer = try await callee.createAnswer()
        try await callee.setLocalDescription(answer)
        try await caller.setRemoteDescription(answer)

        // Signaling: hand trickled candidates to the other side once it has the description they
        // belong to, as a signaling channel would (events wait in `events` until read).
        for (from, to) in [(caller, callee), (callee, caller)] {
            Task {
                for await event in from.events {
                    if case let .iceCandidate(candidate) = event { try? await to.addICECandidate(candidate) }
                }
            }
        }

        var sent = false
        for await event in channel.events {
            if case .open = event { try channel.send("hello from Tern"); sent = true; break }
        }
        #expect(sent)
        #expect(channel.counters.messagesSent == 1)
    }
}

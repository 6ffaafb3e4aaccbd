import TernCall
import TernSignaling
import TernSignalingClient

/// Shared by the end-to-end suites that run call agents through the real signaling server.
enum EndToEnd {
    /// A bound on waiting for real sockets and servers, not an assertion about speed. It counts
    /// 10 ms polls, not wall-clock time: a full parallel run on 2 cores can starve every task for
    /// over 30 s (seen in CI). The wall clock caps the wait at four times `seconds`.
    static func eventually(seconds: Double = 30, _ condition: @Sendable () async -> Bool) async -> Bool {
        let cap = ContinuousClock.now + .milliseconds(Int(seconds * 4000))
        var polls = Int(seconds * 100)
        while polls > 0, ContinuousClock.now < cap {
            if await condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
            polls -= 1
        }
        return await condition()
    }

    /// The options every test agent's client uses: the call core decides busy and acceptance,
    /// the signaling client must not.
    static let clientOptions = SignalingClientOptions(autoAcceptAssignedCalls: false, maxConcurrentCalls: nil)

    /// A client connected to `url` and registered as `user` (open server: any token).
    static func connectedClient(_ user: String, url: String) async throws -> SignalingClient {
        let client = try await SignalingClient.connect(url: url, options: clientOptions)
        try await client.register(user: user, token: "")
        return client
    }

    /// A started agent on one connected client, with loopback peer connections.
    static func agent(_ user: String, url: String, configuration: CallConfiguration = CallConfiguration())
        async throws -> CallAgent
    {
        let agent = CallAgent(user: user, signaling: try await connectedClient(user, url: url), peerConfiguration: .loopback,
                              configuration: configuration)
        try await agent.start()
        return agent
    }

    /// A customer's configuration that accepts the picking agent's call without ringing.
    static var acceptingQueueAgents: CallConfiguration {
        var configuration = CallConfiguration()
        configuration.acceptsCallsFromQueueAgents = true
        return configuration
    }
}

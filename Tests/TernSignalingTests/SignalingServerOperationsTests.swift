import Foundation
import Testing
import TernSignaling
import TernSignalingClient
import TernSignalingServer

/// The server's HTTP routes beside `/v1`: `GET /health` and `GET /metrics`, read over raw TCP
/// after real WebSocket clients made a call, dropped and resumed it.
@Suite("Signaling server: /health and /metrics")
struct SignalingServerOperationsTests {
    /// `GET path` over a fresh TCP connection: the whole response, head and body.
    static func get(_ path: String, port: Int) async throws -> String {
        let connection = try RawConnection(port: port)
        connection.write("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
        return await offPool { connection.readUntilClosed(timeoutSeconds: 120) } ?? ""
    }

    /// The value of the sample `name` (with its labels, as printed) in Prometheus text, if present.
    static func sample(_ text: String, _ name: String) -> Double? {
        for line in text.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Double(line.dropFirst(name.count + 1))
        }
        return nil
    }

    static func errorCode(_ message: SignalingMessage?) -> SignalingErrorCode? {
        if case .error(let error) = message { return error.code }
        return nil
    }

    @Test("/health answers 200 with JSON; /metrics counts the call, the resume, refusals, and handling times")
    func healthAndMetrics() async throws {
        let server = SignalingServer(host: "127.0.0.1", port: 0, limits: .unhurried)
        let port = try await server.start()
        let url = "ws://127.0.0.1:\(port)/v1"
        let options = SignalingClientOptions(autoAcceptAssignedCalls: false, maxConcurrentCalls: nil)
        let alice = try await SignalingClient.connect(url: url, options: options)
        try await alice.register(user: "alice", token: "")
        let bob = try await SignalingClient.connect(url: url, options: options)
        try await bob.register(user: "bob", token: "")
        var aliceIn = alice.messages.makeAsyncIterator()
        var bobIn = bob.messages.makeAsyncIterator()
        #expect(await aliceIn.next() == .registered(user: "alice"))
        #expect(await bobIn.next() == .registered(user: "bob"))

        try await alice.send(.invite(Invite(callId: "c1", to: "bob", media: MediaOptions(audio: true))))
        guard case .invite = await bobIn.next() else { Issue.record("no invite"); return }
        try await bob.send(.accept(callId: "c1"))
        #expect(await aliceIn.next() == .accept(callId: "c1"))
        try await alice.send(.hangup(callId: "zz"))  // someone else's call: refused, counted
        #expect(Self.errorCode(await aliceIn.next()) == .notInCall)

        // Bob's connection drops; the call is held; bob resumes it on a new connection.
        await bob.close()
        let health = try await Self.get("/health", port: port)
        #expect(health.hasPrefix("HTTP/1.1 200"))
        let body = try #require(health.components(separatedBy: "\r\n\r\n").last)
        let json = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
        #expect(json?["status"] as? String == "ok")
        #expect(json?["storage"] as? String == "memory")
        #expect(json?["connections"] as? Int == 1)
        #expect(json?["calls"] as? Int == 1)

        var text = try await Self.get("/metrics", port: port)
        #expect(text.hasPrefix("HTTP/1.1 200"))
        #expect(Self.sample(text, #"tern_signal_connections_away"#) == 1)
        #expect(Self.sample(text, #"tern_signal_calls{state="answered"}"#) == 1)

        let bobAgain = try await SignalingClient.connect(url: url, options: options)
        try await bobAgain.register(user: "bob", token: "")
        var bobAgainIn = bobAgain.messages.makeAsyncIterator()
        #expect(await bobAgainIn.next() == .registered(user: "bob"))
        try await bobAgain.send(.resume(callIds: ["c1", "c9"]))
        #expect(Self.errorCode(await bobAgainIn.next()) == .callGone)
        #expect(await bobAgainIn.next() == .resumed(calls: [ResumedCall(callId: "c1", state: .answered)]))

        text = try await Self.get("/metrics", port: port)
        #expect(Self.sample(text, #"tern_signal_invites_total{result="ringing"}"#) == 1)
        #expect(Self.sample(text, #"tern_signal_accepts_total"#) == 1)
        #expect(Self.sample(text, #"tern_signal_resumes_total{result="resumed"}"#) == 1)
        #expect(Self.sample(text, #"tern_signal_resumes_total{result="callGone"}"#) == 1)
        #expect(Self.sample(text, #"tern_signal_refusals_total{code="notInCall"}"#) == 1)
        #expect(Self.sample(text, #"tern_signal_connections_away"#) == 0)
        #expect(Self.sample(text, #"tern_signal_connections"#) == 2)
        #expect(Self.sample(text, #"tern_signal_registrations"#) == 2)
        // Every frame the server read was timed: register ×3, invite, accept, hangup, resume.
        #expect(Self.sample(text, "tern_signal_message_handling_seconds_count") == 7)
        // A second scrape reports the same totals (counters grow by what changed, not again).
        text = try await Self.get("/metrics", port: port)
        #expect(Self.sample(text, #"tern_signal_accepts_total"#) == 1)

        await alice.close()
        await bobAgain.close()
        await server.shutdown()
    }
}

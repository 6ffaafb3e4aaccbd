import Foundation
import Synchronization
import TernCall
import TernSignaling
import TernSignalingServer

/// `tern peer --answer --offline-until-push`: the device is not connected when the call comes. It
/// listens for the push webhook (standing in for the app backend and APNs/FCM), hands each push
/// to the agent, which checks it, connects, registers and gets the pending invite.
extension PeerSession {
    /// Makes the agent (not started: the push starts it) and starts listening for the webhook.
    mutating func connectAfterPush(_ wait: PushWait) async -> CallAgent? {
        var configuration = CallConfiguration()
        configuration.pushSecret = wait.secret
        let agent = Self.makeAgent(options, rotation: SignalingURLRotation(urls: options.signalURLs, first: nil),
                                   timeline: timeline, configuration: configuration)
        let arrival = pushArrival
        let timeline = self.timeline
        let listener = SignalingPushListener(host: wait.host, port: wait.port) { body, signature in
            let now = timeline.elapsedMilliseconds
            arrival.record(now)
            // Wall-clock time too, so a rig can time the push against another process's invite.
            let wallMs = Int(Date().timeIntervalSince1970 * 1000)
            timeline.log("push", "push received (\(body.count) bytes)", fields: ["event": .string("push"), "wallMs": .int(wallMs)])
            Task { await agent.handlePushMessage(CallPushMessage(body: body, signature: signature)) }
        }
        let port: Int
        do { port = try await listener.start() } catch {
            steps.fail("push", "cannot listen for the push webhook on \(wait.host):\(wait.port): \(error)")
            return nil
        }
        pushListener = listener
        let url = "http://\(wait.host):\(port)/push"
        timeline.log("push", "offline until a push: webhook at \(url)",
                     fields: ["event": .string("pushListening"), "url": .string(url), "port": .int(port)])
        return agent
    }

    /// Waits for the first push and for the agent it woke to register; the push step says which
    /// push came when, or why none rang (the agent's `invalidPushCall` reasons).
    mutating func awaitPush(_ participant: CallParticipant) async -> Bool {
        let seconds = options.wait.seconds
        let pushed = await waitFor(seconds: seconds) { pushArrival.at != nil || StopRequest.requested }
        guard pushed, let at = pushArrival.at else {
            steps.fail("push", "no push came within \(Int(seconds)) s")
            return false
        }
        var running = false
        for _ in 0..<1000 where !running && participant.snapshot.invalidPushes.isEmpty {
            running = await participant.agent.isRunning
            if !running { try? await Task.sleep(for: .milliseconds(10)) }
        }
        let refused = participant.snapshot.invalidPushes
        steps.check("push", running,
                    passed: String(format: "push received %.0f ms after start; signature checked; registered as %@", at, options.user),
                    failed: "a push came and was not rung: \(refused.isEmpty ? "the agent did not register" : refused.joined(separator: ", "))")
        return running
    }
}

/// When the first push arrived (timeline ms), shared with the webhook listener's handler.
final class PushArrival: Sendable {
    private let first = Mutex<Double?>(nil)
    var at: Double? { first.withLock { $0 } }
    func record(_ ms: Double) { first.withLock { $0 = $0 ?? ms } }
}

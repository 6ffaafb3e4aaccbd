import Foundation
import Hummingbird
import NIOCore
import Synchronization

/// A real HTTP server on 127.0.0.1 standing in for the application's push backend: records each
/// POST (signature header, body, when) and answers 503 to the first `failFirst` of them.
final class PushWebhookReceiver: Sendable {
    struct Received: Sendable {
        let signature: String?
        let body: [UInt8]
        let at: ContinuousClock.Instant
    }

    private let state: Mutex<(received: [Received], failuresLeft: Int)>
    private let task = Mutex<Task<Void, any Error>?>(nil)

    init(failFirst: Int = 0) {
        state = Mutex(([], failFirst))
    }

    var received: [Received] { state.withLock { $0.received } }

    /// Starts listening; returns the webhook URL.
    func start() async throws -> String {
        let router = Router()
        router.post("/push") { [self] request, _ -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
            let fail = state.withLock { state in
                state.received.append(Received(signature: request.headers.first { $0.name.canonicalName == "x-tern-signature" }?.value,
                                               body: Array(buffer: body), at: .now))
                guard state.failuresLeft > 0 else { return false }
                state.failuresLeft -= 1
                return true
            }
            return Response(status: fail ? .serviceUnavailable : .accepted)
        }
        let (port, portContinuation) = AsyncStream<Int>.makeStream()
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                              onServerRunning: { channel in
                                  portContinuation.yield(channel.localAddress?.port ?? 0)
                                  portContinuation.finish()
                              })
        task.withLock { $0 = Task { try await app.runService() } }
        var ports = port.makeAsyncIterator()
        return "http://127.0.0.1:\(await ports.next() ?? 0)/push"
    }

    func stop() async {
        let running = task.withLock { $0 }
        running?.cancel()
        _ = await running?.result
    }

    /// Waits until `count` POSTs arrived, or `seconds` passed.
    func waitFor(_ count: Int, seconds: Double) async -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            if received.count >= count { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return received.count >= count
    }
}

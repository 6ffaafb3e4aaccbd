import TernSignaling
import Hummingbird
import Logging
import NIOCore
import Synchronization
import TernCore

/// The receiving end of the push webhook for tests and the `tern peer --offline-until-push` rig:
/// an HTTP endpoint that takes `POST /push` (the body and its `X-Tern-Signature`), answers
/// 202 Accepted and hands the push on. A real deployment puts its own backend here, which turns
/// the POST into an APNs/FCM push; the device then gives the same body and signature to
/// `CallAgent.handlePushMessage`.
public actor SignalingPushListener {
    /// Largest body taken (a push invitation is a few hundred bytes; attached data adds some).
    public static let maxBodyBytes = 256 * 1024

    public nonisolated let host: String
    public nonisolated let port: Int
    private let onPush: @Sendable ([UInt8], String) -> Void
    private var running: Task<Void, any Error>?

    /// A listener on `host:port` (0: any free port) calling `onPush(body, signature)` per POST.
    public init(host: String = "127.0.0.1", port: Int = 0, onPush: @escaping @Sendable ([UInt8], String) -> Void) {
        self.host = host
        self.port = port
        self.onPush = onPush
    }

    /// Starts listening; returns the bound port.
    public func start() async throws -> Int {
        let onPush = self.onPush
        let router = Router()
        router.post("/push") { request, _ -> Response in
            let body = try await request.body.collect(upTo: Self.maxBodyBytes)
            let signature = request.headers.first { $0.name.canonicalName == PushInvitation.signatureHeader.lowercased() }?.value
            onPush(Array(buffer: body), signature ?? "")
            return Response(status: .accepted)
        }
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = Application(router: router, configuration: .init(address: .hostname(host, port: port), serverName: "tern-push"),
                              onServerRunning: { channel in
                                  continuation.yield(channel.localAddress?.port ?? 0)
                                  continuation.finish()
                              },
                              logger: TernLog.logger("push"))
        running = Task {
            defer { continuation.finish() }
            try await app.runService()
        }
        for await bound in ports { return bound }
        try await running?.value
        throw SignalingServerError.notListening(host: host, port: port)
    }

    public func stop() async {
        running?.cancel()
        _ = await running?.result
        running = nil
    }
}

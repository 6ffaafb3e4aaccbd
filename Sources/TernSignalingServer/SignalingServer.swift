public import TernCore
public import TernSignaling
public import TernSignalingPostgres
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOWebSocket
import ServiceLifecycle
import UnixSignals

/// The reference signaling server: protocol v1 (Docs/SIGNALING.md) as JSON text
/// frames over WebSocket at `ws://HOST:PORT/v1`, on Hummingbird, with `GET /health` and
/// `GET /metrics` (Prometheus) on the same port.
///
/// A thin driver: a `SignalingSwitchboard` owns the sans-I/O `SignalingRouter`, each
/// WebSocket feeds it frames and writes what it queues, and one timer task fires
/// ringing timeouts.
public actor SignalingServer {
    /// Frames above this size make the server close the WebSocket (1009, message too
    /// big) instead of buffering them; frames between `SignalingLimits.maxFrameBytes`
    /// (256 KiB) and this get an `error` reply and the connection stays.
    public static let hardFrameLimit = 1 << 20
    /// How long a close frame may take to leave before the TCP connection is dropped.
    static let closeGrace = Duration.seconds(2)
    /// How long one frame may wait to be written before the TCP connection is dropped.
    static let writeTimeout = Duration.seconds(10)
    /// How often the timer task looks for due ringing timeouts.
    public static let timerResolution = Duration.milliseconds(20)

    /// Interface to listen on.
    public nonisolated let host: String
    /// Port asked for (0 = any free port; `start()` returns the one bound).
    public nonisolated let port: Int
    /// The switchboard (router and connections) this server drives.
    public nonisolated let switchboard: SignalingSwitchboard
    /// TLS (`wss://`), or nil for plain `ws://`.
    public nonisolated let tls: SignalingServerTLS?
    /// The `Origin` values a WebSocket upgrade may carry (RFC 6455 §10.2: browsers send the
    /// page's origin, so a page from another site cannot use a user's server from the user's
    /// browser); a request without `Origin` (not from a browser) is always allowed. `nil`
    /// allows any origin.
    public nonisolated let allowedOrigins: Set<String>?
    /// How long an accepted connection has to complete its WebSocket upgrade (TLS handshake
    /// included) before it is closed.
    public nonisolated let upgradeTimeout: Duration
    /// Connections closed at the HTTP level: not upgraded in time, Origin not allowed.
    public nonisolated let counters = SignalingServerCounters()
    /// `GET /metrics` (Prometheus text format).
    nonisolated let metrics = SignalingServerMetrics()
    /// How long a SIGTERM/SIGINT shutdown may take: open WebSockets are closed (1001, going
    /// away; clients reconnect, to another node where there are several) and the server waits
    /// for them this long before it stops anyway.
    public nonisolated let shutdownDeadline: Duration
    /// Several nodes on one PostgreSQL: this node's part of the shared log; nil for one node
    /// with its state in memory.
    public nonisolated let postgres: SignalingPostgresLog?
    /// Pushes invitations to invitees with no live connection; nil: push off (`unavailable`).
    public nonisolated let pushWebhook: SignalingPushWebhook?
    private let logger: Logger
    private var group: ServiceGroup?
    private var running: Task<Void, any Error>?
    private var timer: Task<Void, Never>?

    /// A server on `host:port`. `tokens` enables token checks (JWT, `SignalingTokens`);
    /// `nil` is open development mode (any token accepted, a warning is logged).
    public init(host: String = "127.0.0.1", port: Int = 8787, tokens: SignalingTokens? = nil,
                limits: SignalingLimits = SignalingLimits(), clock: any MonotonicClock = SystemClock(),
                tls: SignalingServerTLS? = nil, allowedOrigins: Set<String>? = nil,
                upgradeTimeout: Duration = .seconds(10), shutdownDeadline: Duration = .seconds(10),
                postgres: SignalingPostgresLog? = nil, pushWebhook: SignalingPushWebhook? = nil)
    {
        self.pushWebhook = pushWebhook
        self.shutdownDeadline = shutdownDeadline
        self.postgres = postgres
        let sequencer: (any SignalingSequencer)? = postgres
        self.host = host
        self.port = port
        self.tls = tls
        self.allowedOrigins = allowedOrigins
        self.upgradeTimeout = upgradeTimeout
        logger = TernLog.logger("signaling")
        let logger = self.logger
        let metrics = self.metrics
        switchboard = SignalingSwitchboard(
            limits: limits, tokenVerifier: tokens, clock: clock, sequencer: sequencer, pushSender: pushWebhook,
            onRefused: { id, error in
                // Every refused message is logged (and counted by the router: `refusals`).
                logger.notice("refused a message from connection \(id): \(LogText.escaped(error.code.rawValue)) — \(LogText.escaped(error.message))")
            },
            onFrameHandled: { metrics.recordHandling($0) })
    }

    /// Starts listening and returns the bound port; the server runs until `shutdown()`.
    @discardableResult
    public func start() async throws -> Int {
        try await launch(signals: [])
    }

    /// Starts listening, calls `onListening` with the bound port, and serves until
    /// SIGINT or SIGTERM (then shuts down gracefully) or until `shutdown()`.
    public func run(onListening: @Sendable (Int) -> Void = { _ in }) async throws {
        let bound = try await launch(signals: [.sigint, .sigterm])
        onListening(bound)
        try await running?.value
        await stopTimer()
        await postgres?.leave()
    }

    /// Messages refused so far, by error code (malformed, bad token, someone else's call, ...).
    public var refusals: [SignalingErrorCode: Int] { switchboard.refusals }

    /// Stops accepting connections, closes the open ones (1001, going away) and waits
    /// for the server to finish.
    public func shutdown() async {
        switchboard.closeAll(reason: "server shutting down")
        await postgres?.leave()
        await group?.triggerGracefulShutdown()
        _ = await running?.result
        running = nil
        group = nil
        await stopTimer()
        await pushWebhook?.shutdown()
    }

    private func stopTimer() async {
        timer?.cancel()
        await timer?.value
        timer = nil
    }

    private func launch(signals: [UnixSignal]) async throws -> Int {
        precondition(running == nil, "SignalingServer started twice")
        if switchboard.isOpenMode {
            logger.warning("signaling server has no secret: open development mode, any token is accepted")
        }
        // A node of several first catches up with the shared log, then listens.
        if let postgres { try await postgres.join(switchboard) }
        let (portStream, portContinuation) = AsyncStream<Int>.makeStream()
        let shouldUpgrade: @Sendable (HTTPRequest, any Channel, Logger) async throws
            -> ShouldUpgradeResult<WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>> =
        { [switchboard, logger, allowedOrigins, counters, metrics] request, channel, _ in
            guard request.path?.split(separator: "?").first == "/v1" else { return .dontUpgrade }
            if let allowedOrigins, let origin = request.headerFields[.origin], !allowedOrigins.contains(origin) {
                counters.originRefused()
                logger.notice("refused a WebSocket upgrade from origin \(LogText.escaped(origin))")
                return .dontUpgrade
            }
            try? await channel.pipeline.removeHandler(name: UpgradeDeadlineHandler.name).get()
            return .upgrade([:]) { inbound, outbound, _ in
                await Self.serve(inbound: inbound, outbound: outbound, channel: channel, switchboard: switchboard,
                                 counters: counters, metrics: metrics, logger: logger)
            }
        }
        let deadline = TimeAmount.nanoseconds(Int64(upgradeTimeout.components.seconds) * 1_000_000_000
            + upgradeTimeout.components.attoseconds / 1_000_000_000)
        let channelConfiguration = HTTP1WebSocketUpgradeChannel.Configuration(
            http1: .init(idleTimeout: deadline), ws: .init(maxFrameSize: Self.hardFrameLimit))
        let tlsConfiguration = try tls?.configuration()
        let counters = self.counters
        let server = HTTPServerBuilder { responder in
            let webSocket = HTTP1WebSocketUpgradeChannel(
                responder: responder, configuration: channelConfiguration, shouldUpgrade: shouldUpgrade)
            let layered: any ServerChildChannel =
                if let tlsConfiguration { try TLSChannel(webSocket, tlsConfiguration: tlsConfiguration) } else { webSocket }
            return withUpgradeDeadline(layered, deadline: deadline) { counters.upgradeTimedOut() }
        }
        let app = Application(
            router: SignalingServerRoutes.router(switchboard: switchboard, counters: counters, metrics: metrics,
                                                 postgres: postgres, pushWebhook: pushWebhook),
            server: server,
            configuration: .init(address: .hostname(host, port: port), serverName: "tern-signal"),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            },
            logger: logger)
        var groupConfiguration = ServiceGroupConfiguration(
            services: [app], gracefulShutdownSignals: signals, logger: logger)
        groupConfiguration.maximumGracefulShutdownDuration = shutdownDeadline
        let group = ServiceGroup(configuration: groupConfiguration)
        self.group = group
        running = Task {
            defer { portContinuation.finish() }
            try await group.run()
        }
        var bound: Int?
        for await value in portStream {
            bound = value
            break
        }
        guard let bound else {
            // The service ended before listening: surface its error.
            let failed = running
            running = nil
            self.group = nil
            try await failed?.value
            throw SignalingServerError.notListening(host: host, port: port)
        }
        timer = Task { [switchboard] in
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.timerResolution)
                switchboard.fireTimeouts()
            }
        }
        logger.info("signaling server listening on \(tls == nil ? "ws" : "wss")://\(host):\(bound)/v1")
        return bound
    }

    /// One WebSocket: frames in go to the switchboard, what it queues goes out.
    private static func serve(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, channel: any Channel,
                              switchboard: SignalingSwitchboard, counters: SignalingServerCounters,
                              metrics: SignalingServerMetrics, logger: Logger) async
    {
        /// Sends a close frame, but drops the TCP connection if it has not gone after
        /// `closeGrace`: a peer that stops reading never lets the frame out, and the connection
        /// (closed as too slow, or at shutdown) would otherwise stay open for as long as it likes.
        @Sendable func close(_ code: WebSocketErrorCode, _ reason: String) async {
            let drop = Task {
                try? await Task.sleep(for: closeGrace)
                try? await channel.close()
            }
            try? await outbound.close(code, reason: reason)
            _ = drop
        }
        let (id, outgoing) = switchboard.open()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await item in outgoing {
                    switch item {
                    case .text(let text):
                        // A peer that stops reading blocks this write once the socket's buffers are
                        // full, and with it every later item (the close for being too slow too):
                        // past writeTimeout the TCP connection is dropped.
                        let watchdog = Task {
                            try await Task.sleep(for: writeTimeout)
                            logger.notice("dropped connection \(id): a frame waited \(writeTimeout) to be written")
                            counters.writeTimedOut()
                            try? await channel.close()
                        }
                        defer { watchdog.cancel() }
                        do { try await outbound.write(.text(text)) } catch { return }
                        switchboard.written(text.utf8.count, on: id)
                    case .close(let reason):
                        await close(.goingAway, reason)
                        return
                    case .closeServerFull(let reason):
                        logger.notice("refused connection \(id): \(reason)")
                        await close(.unknown(1013), reason)
                        return
                    case .closeTooSlow(let reason):
                        logger.notice("closed connection \(id): \(reason)")
                        await close(.policyViolation, reason)
                        return
                    }
                }
            }
            do {
                for try await message in inbound.messages(maxSize: hardFrameLimit) {
                    let text: String = switch message {
                    case .text(let text): text
                    case .binary(let buffer): String(buffer: buffer)
                    }
                    // Refusals are logged by the switchboard's `onRefused`, handling times recorded
                    // by its `onFrameHandled` (after the shared log, with several nodes).
                    switchboard.receive(text, from: id)
                }
            } catch {
                // The socket failed or sent more than hardFrameLimit: the connection ends.
            }
            // A WebSocket close frame and a lost socket look alike from here, so both leave the
            // connection's calls held for a `resume`; a client leaving for good hangs up first.
            switchboard.drop(id)
            group.cancelAll()
        }
    }
}

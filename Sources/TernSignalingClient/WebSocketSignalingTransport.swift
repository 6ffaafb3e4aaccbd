public import TernSignaling
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket

/// A `SignalingTransport` over a WebSocket (`ws://HOST:PORT/v1`), on plain SwiftNIO
/// (`NIOPosix` sockets, `NIOHTTP1` for the opening handshake, `NIOWebSocket` frames).
///
/// `ws://`, or `wss://` over TLS (swift-nio-ssl) with the server's certificate verified
/// (`SignalingClientTLS`). Messages travel as single text frames; the server's binary frames
/// are read as UTF-8 text, fragmented messages are reassembled, Pings answered.
public final class WebSocketSignalingTransport: SignalingTransport {
    /// Largest frame, and largest reassembled message, accepted from the server
    /// (1 MiB, the server's own hard limit). A bigger one ends the connection
    /// (Close 1009, message too big).
    public static let maxFrameSize = 1 << 20
    /// Most fragments one message may arrive in.
    static let maxFragments = 4096
    /// Time allowed for the TCP connect, and again for the opening handshake.
    static let handshakeTimeout = TimeAmount.seconds(10)

    /// Messages from the server, in order; finishes when the connection ends.
    public let incoming: AsyncStream<String>
    private let channel: any Channel

    private init(incoming: AsyncStream<String>, channel: any Channel) {
        self.incoming = incoming
        self.channel = channel
    }

    deinit {
        channel.close(promise: nil)
    }

    /// Connects to `url` (e.g. `ws://127.0.0.1:8787/v1`) and returns once the server
    /// has accepted the WebSocket upgrade (`101 Switching Protocols` with a valid
    /// `Sec-WebSocket-Accept`, RFC 6455 §4.1). Throws `SignalingTransportError.failed`
    /// with the reason otherwise (for `wss://`, a certificate that does not verify says why).
    public static func connect(url: String, tls: SignalingClientTLS = .system) async throws(SignalingTransportError)
        -> WebSocketSignalingTransport
    {
        let target: WebSocketURL
        do {
            target = try WebSocketURL(parsing: url)
        } catch {
            throw .failed(error.description)
        }
        var context: NIOSSLContext?
        if target.secure {
            do {
                context = try NIOSSLContext(configuration: try tls.configuration())
            } catch let failure as SignalingTransportFailure {
                throw .failed("cannot open \(url): \(failure.reason)")
            } catch {
                throw .failed("cannot open \(url): TLS set-up failed: \(error)")
            }
        }
        let (incoming, continuation) = AsyncStream<String>.makeStream()
        let outcome: HandshakeOutcome
        do {
            outcome = try await handshake(target: target, tls: context, incoming: continuation)
        } catch let error as NIOSSLError {
            continuation.finish()
            throw .failed("cannot open \(url): TLS failed: \(error)")
        } catch let error as NIOSSLExtraError {
            continuation.finish()
            throw .failed("cannot open \(url): TLS failed (the certificate is not for \(target.host)?): \(error)")
        } catch let error as BoringSSLError {
            continuation.finish()
            throw .failed("cannot open \(url): TLS failed (is the server's certificate trusted and issued for "
                + "\(target.host)?): \(error)")
        } catch let error as ChannelError {
            continuation.finish()
            throw .failed("cannot open a WebSocket to \(url): the connection ended before the server answered "
                + "the upgrade request (it closed it, or gave no answer in \(handshakeTimeout.nanoseconds / 1_000_000_000) s): \(error)")
        } catch {
            continuation.finish()
            throw .failed("cannot open a WebSocket to \(url): \(error)")
        }
        switch outcome {
        case .upgraded(let channel):
            return WebSocketSignalingTransport(incoming: incoming, channel: channel)
        case .refused(let status):
            continuation.finish()
            let answer = (try? await status.get()).flatMap { $0 }
                .map { "answered \($0.code) \($0.reasonPhrase)" } ?? "closed the connection"
            throw .failed("\(url): the server \(answer) instead of upgrading to WebSocket (101)")
        }
    }

    /// Sends `text` as one text frame; returns once it is written to the socket.
    /// Throws `.closed` once the connection is closed or closing (a Close was sent),
    /// or if it fails while writing.
    public func send(_ text: String) async throws(SignalingTransportError) {
        let frame = WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: text))
        do {
            try await channel.writeAndFlush(frame)
        } catch {
            throw .closed
        }
    }

    /// Sends a Close frame (1000, normal closure) and waits until the connection has
    /// ended (the server's Close answer, or a 3 s grace period, RFC 6455 §7.1.1).
    public func close() async {
        var code = channel.allocator.buffer(capacity: 2)
        code.write(webSocketErrorCode: .normalClosure)
        try? await channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .connectionClose, data: code))
        try? await channel.closeFuture.get()
    }
}

extension WebSocketSignalingTransport {
    /// How the opening handshake ended.
    enum HandshakeOutcome: Sendable {
        /// 101: the channel now carries WebSocket frames.
        case upgraded(any Channel)
        /// Any other answer; its status, if one was read.
        case refused(EventLoopFuture<HTTPResponseStatus?>)
    }

    /// Opens TCP to `target`, sends the HTTP/1.1 Upgrade request and waits for the answer.
    private static func handshake(target: WebSocketURL, tls: NIOSSLContext?, incoming: AsyncStream<String>.Continuation)
        async throws -> HandshakeOutcome
    {
        let negotiation = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(handshakeTimeout)
            .connect(host: target.host, port: target.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls {
                        // SNI and the name check use the URL's host (no SNI for an IP literal, RFC 6066 §3).
                        let isAddress = target.host.contains(":") || target.host.allSatisfy { $0.isNumber || $0 == "." }
                        let handler = try NIOSSLClientHandler(context: tls, serverHostname: isAddress ? nil : target.host)
                        try channel.pipeline.syncOperations.addHandler(handler)
                    }
                    return try configure(channel: channel, target: target, incoming: incoming)
                }
            }
        return try await negotiation.get()
    }

    /// Sets up the pipeline for the opening handshake (RFC 6455 §4.1) and, on 101,
    /// for frames: NIO's encoder/decoder and protocol-error handler, then the
    /// fragment aggregator and `WebSocketFrameHandler`.
    private static func configure(channel: any Channel, target: WebSocketURL,
                                  incoming: AsyncStream<String>.Continuation) throws -> EventLoopFuture<HandshakeOutcome>
    {
        let upgrader = NIOTypedWebSocketClientUpgrader<HandshakeOutcome>(maxFrameSize: maxFrameSize) { channel, _ in
            channel.eventLoop.makeCompletedFuture {
                let pipeline = channel.pipeline.syncOperations
                try pipeline.addHandler(NIOWebSocketFrameAggregator(
                    minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: maxFragments,
                    maxAccumulatedFrameSize: maxFrameSize))
                try pipeline.addHandler(WebSocketFrameHandler(incoming: incoming))
                return .upgraded(channel)
            }
        }
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: target.hostHeader)
        headers.add(name: "Content-Length", value: "0")
        let request = HTTPRequestHead(version: .http1_1, method: .GET, uri: target.requestTarget, headers: headers)
        let upgrade = NIOTypedHTTPClientUpgradeConfiguration<HandshakeOutcome>(
            upgradeRequestHead: request, upgraders: [upgrader],
            notUpgradingCompletionHandler: { channel in
                channel.eventLoop.makeCompletedFuture {
                    let status = channel.eventLoop.makePromise(of: HTTPResponseStatus?.self)
                    try channel.pipeline.syncOperations.addHandler(UpgradeRefusalHandler(status: status))
                    return .refused(status.futureResult)
                }
            })
        // Bytes that arrive in the same read as the 101 are already WebSocket frames:
        // forward them to the frame decoder (NIO's default drops them).
        var pipeline = NIOUpgradableHTTPClientPipelineConfiguration(upgradeConfiguration: upgrade)
        pipeline.leftOverBytesStrategy = .forwardBytes
        let negotiation = try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
            configuration: pipeline)

        // A server that accepts TCP but never answers must not hang `connect`.
        let timeout = channel.eventLoop.scheduleTask(in: handshakeTimeout) { channel.close(promise: nil) }
        negotiation.whenComplete { result in
            timeout.cancel()
            if case .failure = result { channel.close(promise: nil) }
        }
        return negotiation
    }
}

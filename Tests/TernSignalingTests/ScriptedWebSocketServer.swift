import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// A one-connection WebSocket server on 127.0.0.1 written directly on SwiftNIO, for
/// client behaviour the Hummingbird server never shows: right after the upgrade it
/// writes `script` (fragments, Pings, binary frames, oversized messages) and then
/// records every frame the client sends, raw (mask key included), in `received`.
/// It answers a Close with a Close and ends the connection.
final class ScriptedWebSocketServer: Sendable {
    /// Frames received from the client, in order; finishes when the connection ends.
    let received: AsyncStream<WebSocketFrame>
    /// The bound port.
    let port: Int
    private let listener: any Channel

    private init(received: AsyncStream<WebSocketFrame>, port: Int, listener: any Channel) {
        self.received = received
        self.port = port
        self.listener = listener
    }

    static func start(script: [WebSocketFrame]) async throws -> ScriptedWebSocketServer {
        let (received, continuation) = AsyncStream<WebSocketFrame>.makeStream()
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let upgrader = NIOWebSocketServerUpgrader(
                        maxFrameSize: 1 << 22,
                        shouldUpgrade: { channel, _ in channel.eventLoop.makeSucceededFuture(HTTPHeaders()) },
                        upgradePipelineHandler: { channel, _ in
                            channel.eventLoop.makeCompletedFuture {
                                try channel.pipeline.syncOperations.addHandler(
                                    ScriptHandler(script: script, received: continuation))
                            }
                        })
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(
                        withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return ScriptedWebSocketServer(received: received, port: listener.localAddress?.port ?? 0, listener: listener)
    }

    func shutdown() async {
        try? await listener.close()
    }
}

/// Server side of one scripted connection; runs on its event loop only.
private final class ScriptHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let script: [WebSocketFrame]
    private let received: AsyncStream<WebSocketFrame>.Continuation

    init(script: [WebSocketFrame], received: AsyncStream<WebSocketFrame>.Continuation) {
        self.script = script
        self.received = received
    }

    func handlerAdded(context: ChannelHandlerContext) {
        for frame in script { context.write(wrapOutboundOut(frame), promise: nil) }
        context.flush()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        received.yield(frame)
        if frame.opcode == .connectionClose {
            let echo = WebSocketFrame(fin: true, opcode: .connectionClose, data: frame.unmaskedData)
            context.writeAndFlush(wrapOutboundOut(echo)).whenComplete { [context = NIOLoopBound(context, eventLoop: context.eventLoop)] _ in
                context.value.close(promise: nil)
            }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        received.finish()
        context.fireChannelInactive()
    }
}

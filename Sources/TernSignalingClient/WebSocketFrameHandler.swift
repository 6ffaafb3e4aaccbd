import NIOCore
import NIOWebSocket

/// The client end of an upgraded WebSocket (RFC 6455), last in the channel pipeline,
/// after NIO's frame encoder/decoder and `NIOWebSocketFrameAggregator`.
///
/// - Inbound: text and binary messages (already reassembled from continuation frames)
///   go to `incoming` as UTF-8 text; Pings are answered with Pongs (§5.5.2–5.5.3);
///   a Close is echoed and the connection ends (§5.5.1, §7.1.2).
/// - Outbound: every frame written through the channel gets a fresh random masking
///   key here, since a client must mask all its frames (§5.3); after a Close has been
///   sent nothing more may be (§5.5.1), so later writes fail.
/// - `incoming` finishes when the TCP connection ends, for whatever reason.
///
/// Runs on its channel's event loop only; all state below is confined to it.
final class WebSocketFrameHandler: ChannelDuplexHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    /// How long to wait for the server's answer to our Close before dropping TCP.
    static let closeHandshakeTimeout = TimeAmount.seconds(3)

    private let incoming: AsyncStream<String>.Continuation
    private var closeSent = false
    private var closeTimer: Scheduled<Void>?

    init(incoming: AsyncStream<String>.Continuation) {
        self.incoming = incoming
    }

    // MARK: inbound

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text, .binary:
            // Binary messages are read as UTF-8 too (Docs/SIGNALING.md, Transport).
            incoming.yield(String(buffer: frame.unmaskedData))
        case .ping:
            guard !closeSent else { return }
            let pong = WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)
            context.writeAndFlush(wrapOutboundOut(masked(pong)), promise: nil)
        case .pong:
            break  // unsolicited Pongs are allowed and need no answer (§5.5.3)
        case .connectionClose:
            receivedClose(context: context, frame: frame)
        default:
            // Reserved opcodes; stray continuations are caught by the aggregator.
            fail(context: context, code: .protocolError)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        closeTimer?.cancel()
        incoming.finish()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        incoming.finish()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // Decoder errors (NIOWebSocketError) were already answered with a Close by
        // NIO's WebSocketProtocolErrorHandler; answer the aggregator's here.
        switch error {
        case is NIOWebSocketError:
            break  // that handler closes the connection once its Close frame is written
        case let error as NIOWebSocketFrameAggregator.Error:
            fail(context: context, code: error == .accumulatedFrameSizeIsTooLarge ? .messageTooLarge : .protocolError)
        default:
            context.close(promise: nil)  // I/O errors: the connection is gone
        }
    }

    // MARK: outbound

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let frame = unwrapOutboundIn(data)
        guard !closeSent else {
            promise?.fail(ChannelError.outputClosed)
            return
        }
        if frame.opcode == .connectionClose { startClosing(context: context) }
        context.write(wrapOutboundOut(masked(frame)), promise: promise)
    }

    // MARK: closing (§7)

    private func receivedClose(context: ChannelHandlerContext, frame: WebSocketFrame) {
        guard !closeSent else {
            // The server answered our Close: the handshake is done (§7.1.1).
            context.close(promise: nil)
            return
        }
        // Echo the status code, then end the connection (§5.5.1).
        var data = frame.unmaskedData
        let code = data.readSlice(length: 2) ?? context.channel.allocator.buffer(capacity: 0)
        let echo = WebSocketFrame(fin: true, opcode: .connectionClose, data: code)
        startClosing(context: context)
        context.writeAndFlush(wrapOutboundOut(masked(echo))).whenComplete { [context = NIOLoopBound(context, eventLoop: context.eventLoop)] _ in
            context.value.close(promise: nil)
        }
    }

    /// Sends a Close with `code` and ends the connection (a local protocol failure).
    private func fail(context: ChannelHandlerContext, code: WebSocketErrorCode) {
        guard !closeSent else {
            context.close(promise: nil)
            return
        }
        var data = context.channel.allocator.buffer(capacity: 2)
        data.write(webSocketErrorCode: code)
        startClosing(context: context)
        let frame = WebSocketFrame(fin: true, opcode: .connectionClose, data: data)
        context.writeAndFlush(wrapOutboundOut(masked(frame))).whenComplete { [context = NIOLoopBound(context, eventLoop: context.eventLoop)] _ in
            context.value.close(promise: nil)
        }
    }

    /// Marks the Close as sent and drops the connection if the server does not
    /// finish the closing handshake in time.
    private func startClosing(context: ChannelHandlerContext) {
        closeSent = true
        let channel = context.channel
        closeTimer = context.eventLoop.scheduleTask(in: Self.closeHandshakeTimeout) {
            channel.close(promise: nil)
        }
    }

    private func masked(_ frame: WebSocketFrame) -> WebSocketFrame {
        var frame = frame
        frame.maskKey = .random()
        return frame
    }
}

@available(*, unavailable)
extension WebSocketFrameHandler: Sendable {}

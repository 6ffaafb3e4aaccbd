import NIOCore
import NIOHTTP1

/// Added when the server answers the opening handshake with anything but
/// `101 Switching Protocols` (RFC 6455 §4.1, step 5 of the client's checks): it reads
/// that response's status line so the error can say what the server answered, then
/// ends the connection.
///
/// Runs on its channel's event loop only; all state below is confined to it.
final class UpgradeRefusalHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart

    private let status: EventLoopPromise<HTTPResponseStatus?>
    private var reported = false

    /// `status` gets the refusing response's status, or `nil` if the connection
    /// ended before a status line could be read.
    init(status: EventLoopPromise<HTTPResponseStatus?>) {
        self.status = status
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data) {
            report(head.status)
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        report(nil)
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        report(nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        report(nil)
        context.close(promise: nil)
    }

    private func report(_ value: HTTPResponseStatus?) {
        guard !reported else { return }
        reported = true
        status.succeed(value)
    }
}

@available(*, unavailable)
extension UpgradeRefusalHandler: Sendable {}

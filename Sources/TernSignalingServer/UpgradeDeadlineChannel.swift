import HummingbirdCore
import Logging
import NIOCore

/// Wraps a server child channel so that a connection that has not been upgraded to a WebSocket
/// within `deadline` of being accepted is closed: a client that opens TCP (or TLS) and sends
/// nothing, or half a request head, or plain HTTP, cannot hold a socket and its buffers for ever.
/// Upgraded connections remove the timer (`UpgradeDeadlineHandler.name`) and are bounded by the
/// router's register deadline instead.
struct UpgradeDeadlineChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value

    let base: Base
    let deadline: TimeAmount
    let expired: @Sendable () -> Void

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(
                UpgradeDeadlineHandler(deadline: deadline, expired: expired), name: UpgradeDeadlineHandler.name, position: .first)
        }.flatMap {
            base.setup(channel: channel, logger: logger)
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

/// Closes its channel at the deadline unless removed from the pipeline first.
final class UpgradeDeadlineHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    static let name = "tern.upgrade-deadline"

    private let deadline: TimeAmount
    private let expired: @Sendable () -> Void
    private var timer: Scheduled<Void>?

    init(deadline: TimeAmount, expired: @escaping @Sendable () -> Void) {
        self.deadline = deadline
        self.expired = expired
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        let expired = self.expired
        timer = context.eventLoop.scheduleTask(in: deadline) {
            expired()
            channel.close(promise: nil)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }
}

/// `base` inside an `UpgradeDeadlineChannel` (Hummingbird's builders hand out existentials).
func withUpgradeDeadline(_ base: any ServerChildChannel, deadline: TimeAmount,
                         expired: @escaping @Sendable () -> Void) -> any ServerChildChannel {
    func wrap<B: ServerChildChannel>(_ base: B) -> any ServerChildChannel {
        UpgradeDeadlineChannel<B>(base: base, deadline: deadline, expired: expired)
    }
    return wrap(base)
}

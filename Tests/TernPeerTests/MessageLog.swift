import Synchronization
import TernPeer
import TernSCTP

/// The messages a data channel received, in order.
final class MessageLog: Sendable {
    private final class Box: Sendable {
        let log = Mutex<[DataChannelMessage]>([])
    }
    private let box = Box()
    private let reader: Task<Void, Never>

    init(_ channel: DataChannel) {
        let box = self.box
        reader = Task {
            for await event in channel.events {
                if case let .message(message) = event { box.log.withLock { $0.append(message) } }
            }
        }
    }

    var received: [DataChannelMessage] { box.log.withLock { $0 } }

    func stop() { reader.cancel() }
}

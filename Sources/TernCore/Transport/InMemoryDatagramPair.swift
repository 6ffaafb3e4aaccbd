import Synchronization

/// Two connected `DatagramTransport`s in one process: what one side sends, the
/// other side's receive handler gets, synchronously, in order. For unit tests of
/// a single layer; the network conditions of the real world belong to
/// `SimulatedLink` (deterministic) or the network lab (real kernel).
public final class InMemoryDatagramTransport: DatagramTransport {
    private struct State {
        var handler: (@Sendable ([UInt8]) -> Void)?
        /// Weak: the two ends would otherwise keep each other alive after the test drops them.
        weak var peer: InMemoryDatagramTransport?
        var closed = false
    }

    private let state = Mutex(State())
    public let maximumDatagramSize: Int

    /// A connected pair.
    public static func pair(maximumDatagramSize: Int = 65_535) -> (InMemoryDatagramTransport, InMemoryDatagramTransport) {
        let a = InMemoryDatagramTransport(maximumDatagramSize: maximumDatagramSize)
        let b = InMemoryDatagramTransport(maximumDatagramSize: maximumDatagramSize)
        a.state.withLock { $0.peer = b }
        b.state.withLock { $0.peer = a }
        return (a, b)
    }

    private init(maximumDatagramSize: Int) { self.maximumDatagramSize = maximumDatagramSize }

    public func send(_ datagram: [UInt8]) throws(DatagramTransportError) {
        guard datagram.count <= maximumDatagramSize else {
            throw .tooLarge(size: datagram.count, limit: maximumDatagramSize)
        }
        let peer: InMemoryDatagramTransport? = state.withLock { $0.closed ? nil : $0.peer }
        guard let peer else { throw .closed }
        peer.deliver(datagram)
    }

    public func setReceiveHandler(_ handler: (@Sendable ([UInt8]) -> Void)?) {
        state.withLock { $0.handler = handler }
    }

    /// Stops this side: sends fail, nothing more is delivered to it.
    public func close() {
        state.withLock {
            $0.closed = true
            $0.handler = nil
            $0.peer = nil
        }
    }

    private func deliver(_ datagram: [UInt8]) {
        // Call the handler outside the lock so it may send in reply.
        let handler = state.withLock { $0.closed ? nil : $0.handler }
        handler?(datagram)
    }
}

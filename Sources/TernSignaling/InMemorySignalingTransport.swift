/// A `SignalingTransport` connected straight to a `SignalingSwitchboard` in the same
/// process: the full router, no sockets. For unit tests of the layers above
/// (`SignalingClient`, a call facade).
public final class InMemorySignalingTransport: SignalingTransport {
    /// The router's id for this connection.
    public let connection: SignalingConnectionID
    public let incoming: AsyncStream<String>
    private let switchboard: SignalingSwitchboard
    private let pump: Task<Void, Never>

    /// Opens a connection on `switchboard`.
    public init(switchboard: SignalingSwitchboard) {
        self.switchboard = switchboard
        let (connection, outgoing) = switchboard.open()
        self.connection = connection
        let (incoming, continuation) = AsyncStream<String>.makeStream()
        self.incoming = incoming
        pump = Task {
            for await item in outgoing {
                guard case .text(let text) = item else { break }
                continuation.yield(text)
                switchboard.written(text.utf8.count, on: connection)
            }
            continuation.finish()
        }
    }

    public func send(_ text: String) async throws(SignalingTransportError) {
        guard switchboard.receive(text, from: connection) else { throw .closed }
    }

    public func close() async {
        switchboard.close(connection)
        await pump.value
    }

    /// Breaks the pipe as a failed socket would: the switchboard sees a drop (the calls are held
    /// for a `resume`), the client sees its connection end.
    public func sever() async {
        switchboard.drop(connection)
        await pump.value
    }
}

/// A bidirectional pipe of text frames between a `SignalingClient` and a server:
/// a WebSocket (`WebSocketSignalingTransport` in TernSignalingClient) or an in-memory
/// pipe to a `SignalingSwitchboard` (`InMemorySignalingTransport`).
public protocol SignalingTransport: Sendable {
    /// Frames from the server, in order; finishes when the connection closes.
    var incoming: AsyncStream<String> { get }
    /// Sends one frame. Throws `SignalingTransportError.closed` once the pipe is closed.
    func send(_ text: String) async throws(SignalingTransportError)
    /// Closes the connection; `incoming` finishes.
    func close() async
}

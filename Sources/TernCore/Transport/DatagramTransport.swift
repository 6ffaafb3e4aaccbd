/// A connected, unreliable, message-preserving transport: what DTLS sits on.
///
/// `ICETransport` is the real one; `InMemoryDatagramPair` connects two layers
/// in one process for unit tests. Each `send` is one datagram on the wire;
/// each delivery to the receive handler is one datagram received.
public protocol DatagramTransport: AnyObject, Sendable {
    /// Sends one datagram. Throws when the transport is closed or not yet connected.
    func send(_ datagram: [UInt8]) throws(DatagramTransportError)

    /// Sets the function that receives each incoming datagram. It runs on the
    /// transport's own thread and must not block; `nil` stops delivery.
    func setReceiveHandler(_ handler: (@Sendable ([UInt8]) -> Void)?)

    /// The largest datagram `send` accepts.
    var maximumDatagramSize: Int { get }
}

/// Why a datagram could not be sent.
public enum DatagramTransportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The transport was closed.
    case closed
    /// No path to the peer exists yet (e.g. ICE has not selected a pair).
    case notConnected
    /// The datagram is larger than `maximumDatagramSize`.
    case tooLarge(size: Int, limit: Int)
    /// The operating system or library refused the send.
    case sendFailed(reason: String)

    public var description: String {
        switch self {
        case .closed: "transport closed"
        case .notConnected: "transport not connected"
        case let .tooLarge(size, limit): "datagram of \(size) bytes exceeds the limit of \(limit)"
        case let .sendFailed(reason): "send failed: \(reason)"
        }
    }
}

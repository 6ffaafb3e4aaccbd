public import TernCore
internal import CNice

// `DatagramTransport`: what DTLS sits on.
extension ICETransport {
    /// Sends one datagram on the selected pair (`nice_agent_send`; no allocation beyond the
    /// caller's buffer) or, before one is selected, on the best valid pair where
    /// `sendsOnValidPairs`. Throws `.notConnected` before there is either, `.closed` after `close()`.
    /// An empty datagram is ignored (libnice refuses zero-length sends; no layer above needs one).
    public func send(_ datagram: [UInt8]) throws(DatagramTransportError) {
        guard !datagram.isEmpty else { return }
        guard datagram.count <= configuration.maximumDatagramSize else {
            throw .tooLarge(size: datagram.count, limit: configuration.maximumDatagramSize)
        }
        let agent = self.agent.pointer, stream = streamID
        let sent: Int32? = sendGate.withLock { open in
            guard open else { return nil }
            return datagram.withUnsafeBytes { bytes -> Int32 in
                guard let base = bytes.baseAddress else { return 0 } // unreachable: not empty
                return nice_agent_send(agent, stream, Self.componentID, guint(bytes.count),
                                       base.assumingMemoryBound(to: gchar.self))
            }
        }
        guard let sent else { throw .closed }
        guard sent < 0 else { return }
        switch transportState {
        case .connected, .completed, .disconnected:
            throw .sendFailed(reason: "nice_agent_send returned \(sent)")
        case .closed: throw .closed
        default: throw .notConnected
        }
    }

    /// Sets the function that gets each datagram from the peer. It runs on the transport's
    /// `GLibEventLoop` thread, one datagram at a time, and must not block; it may call `send`
    /// and `close`.
    public func setReceiveHandler(_ handler: (@Sendable ([UInt8]) -> Void)?) {
        receiveHandler.withLock { $0 = handler.map(ReceiveHandler.init) }
    }
}

/// The function `setReceiveHandler` installed, held by reference (see `ICETransport.receiveHandler`).
final class ReceiveHandler: Sendable {
    let body: @Sendable ([UInt8]) -> Void
    init(_ body: @escaping @Sendable ([UInt8]) -> Void) { self.body = body }
}

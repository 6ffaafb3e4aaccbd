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

    /// Sends datagrams in order with one call into libnice, which hands a UDP pair's whole batch
    /// to the kernel in one `sendmmsg` (`g_socket_send_messages`): per-datagram system calls
    /// are a large share of a fast data channel's sending cost. Returns how many the socket
    /// took (the rest were refused, e.g. a full socket buffer, and are lost as `send`'s would
    /// be); throws as `send` does when none could be sent. Empty datagrams are skipped.
    public func send(batch datagrams: ArraySlice<[UInt8]>) throws(DatagramTransportError) -> Int {
        let batch = datagrams.filter { !$0.isEmpty }
        guard !batch.isEmpty else { return 0 }
        if let large = batch.first(where: { $0.count > configuration.maximumDatagramSize }) {
            throw .tooLarge(size: large.count, limit: configuration.maximumDatagramSize)
        }
        // One contiguous copy, so that every message's vector can point into it at once.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(batch.reduce(0) { $0 + $1.count })
        for datagram in batch { bytes += datagram }
        let agent = self.agent.pointer, stream = streamID
        let sent: Int32? = sendGate.withLock { open in
            guard open else { return nil }
            return bytes.withUnsafeBytes { raw -> Int32 in
                guard let base = raw.baseAddress else { return 0 }
                var offset = 0
                var vectors = batch.map { datagram -> GOutputVector in
                    defer { offset += datagram.count }
                    return GOutputVector(buffer: base + offset, size: gsize(datagram.count))
                }
                return vectors.withUnsafeMutableBufferPointer { vectorBuffer -> Int32 in
                    guard let first = vectorBuffer.baseAddress else { return 0 }
                    var messages = (0..<batch.count).map { NiceOutputMessage(buffers: first + $0, n_buffers: 1) }
                    return nice_agent_send_messages_nonblocking(agent, stream, Self.componentID, &messages,
                                                                guint(messages.count), nil, nil)
                }
            }
        }
        guard let sent else { throw .closed }
        if sent > 0 { return Int(sent) }
        switch transportState {
        case .connected, .completed, .disconnected:
            throw .sendFailed(reason: "nice_agent_send_messages_nonblocking returned \(sent)")
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

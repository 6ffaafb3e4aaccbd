public import TernCore
internal import CNice

// `DatagramTransport`: what DTLS sits on.
extension ICETransport {
    /// Sends one datagram on the selected pair (`nice_agent_send`; no allocation beyond the
    /// caller's buffer) or, before one is selected, on the best valid pair where
    /// `sendsOnValidPairs`. Throws `.notConnected` before there is either, `.closed` after `close()`.
    /// An empty datagram is ignored (libnice refuses zero-length sends; no layer above needs one).
    public func send(_ datagram: [UInt8]) throws(DatagramTransportError) {
        guard try sendUncounted(datagram) else { return }
        countSent(packets: 1, bytes: datagram.count)
    }

    /// `send` without counting it in `traffic` (Tern's RTT probes, which W3C leaves out as it
    /// does connectivity checks); false when there was nothing to send.
    func sendUncounted(_ datagram: [UInt8]) throws(DatagramTransportError) -> Bool {
        guard !datagram.isEmpty else { return false }
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
        guard sent < 0 else { return true }
        throw sendFailure("nice_agent_send returned \(sent)")
    }

    private func countSent(packets: Int, bytes: Int) {
        packetsSent.add(UInt64(packets), ordering: .relaxed)
        bytesSent.add(UInt64(bytes), ordering: .relaxed)
    }

    /// Why libnice refused to send: nothing to send on yet, closed, or a failure of the socket.
    private func sendFailure(_ reason: String) -> DatagramTransportError {
        let (transport, canSend) = state.withLock { ($0.transportState, $0.selectedPair != nil || $0.validPair != nil) }
        switch transport {
        case .closed: return .closed
        case .connected, .completed, .disconnected: return .sendFailed(reason: reason)
        default: return canSend ? .sendFailed(reason: reason) : .notConnected
        }
    }

    /// Sends datagrams in order with one call into libnice, which hands a UDP pair's whole batch
    /// to the kernel in one `sendmmsg` (`g_socket_send_messages`): per-datagram system calls
    /// are a large share of a fast data channel's sending cost. Returns how many the socket
    /// took: empty datagrams and ones over `maximumDatagramSize` are left out (each alone would
    /// be refused by `send`), and the socket may refuse the tail (a full buffer); those are lost
    /// as `send`'s would be. Throws as `send` does when none could be sent.
    public func send(batch datagrams: ArraySlice<[UInt8]>) throws(DatagramTransportError) -> Int {
        let limit = configuration.maximumDatagramSize
        let batch = datagrams.filter { !$0.isEmpty && $0.count <= limit }
        guard !batch.isEmpty else {
            if let large = datagrams.first(where: { $0.count > limit }) { throw .tooLarge(size: large.count, limit: limit) }
            return 0
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
        if sent > 0 {
            countSent(packets: Int(sent), bytes: batch.prefix(Int(sent)).reduce(0) { $0 + $1.count })
            return Int(sent)
        }
        throw sendFailure("nice_agent_send_messages_nonblocking returned \(sent)")
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

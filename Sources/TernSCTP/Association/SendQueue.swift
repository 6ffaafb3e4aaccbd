internal import DequeModule

/// Messages waiting to be sent, one FIFO per stream, served round-robin between streams at
/// message boundaries (a fragmented message keeps consecutive TSNs, RFC 9260 §6.9), so one
/// busy or huge channel does not starve the others.
struct SendQueue {
    private var perStream: [UInt16: Deque<OutboundMessage>] = [:]
    /// Streams with queued messages; the first one is being served.
    private var ring = Deque<UInt16>()
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    mutating func append(_ message: OutboundMessage) {
        let sid = message.streamIdentifier
        if perStream[sid, default: []].isEmpty { ring.append(sid) }
        perStream[sid, default: []].append(message)
        count += 1
    }

    /// The message to send next: a partly sent one continues until its last fragment.
    var head: OutboundMessage? {
        guard let sid = ring.first else { return nil }
        return perStream[sid]?.first
    }

    /// Replaces the head after cutting a fragment from it.
    mutating func updateHead(_ message: OutboundMessage) {
        guard let sid = ring.first, perStream[sid]?.isEmpty == false else { return }
        perStream[sid, default: []][0] = message
    }

    /// Removes the head message and moves on to the next stream.
    mutating func removeHead() {
        guard let sid = ring.popFirst() else { return }
        _ = perStream[sid, default: []].popFirst()
        count -= 1
        if perStream[sid]?.isEmpty == false { ring.append(sid) } else { perStream[sid] = nil }
    }

    /// Serves the next stream first, leaving the head (not yet started) queued.
    mutating func rotate() {
        if let sid = ring.popFirst() { ring.append(sid) }
    }

    /// Number of streams with queued messages.
    var streamCount: Int { ring.count }

    /// Whether anything is queued on `stream`.
    func contains(stream: UInt16) -> Bool { perStream[stream]?.isEmpty == false }

    mutating func removeAll() {
        perStream = [:]
        ring.removeAll()
        count = 0
    }
}

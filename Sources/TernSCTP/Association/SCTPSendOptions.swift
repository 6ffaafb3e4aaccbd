/// How a message is sent (RFC 8831 §6.6 reliability, RFC 3758 PR-SCTP).
public struct SCTPSendOptions: Sendable, Equatable {
    /// U bit: deliver on arrival, not in stream order.
    public var unordered: Bool
    /// PR-SCTP "rexmit" policy: abandon after this many retransmissions (0 = send once).
    public var maxRetransmits: Int?
    /// PR-SCTP "timed" policy: abandon once this long has passed since `send`.
    public var lifetime: Duration?

    /// Creates a value from its fields.
    public init(unordered: Bool = false, maxRetransmits: Int? = nil, lifetime: Duration? = nil) {
        self.unordered = unordered
        self.maxRetransmits = maxRetransmits
        self.lifetime = lifetime
    }
}

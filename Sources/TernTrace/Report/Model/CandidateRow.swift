/// One ICE candidate as shown in the report's candidate table (RFC 8445 §5.1).
public struct CandidateRow: Codable, Sendable, Equatable {
    /// Which agent gathered the candidate.
    public enum Side: String, Codable, Sendable {
        /// Gathered by this peer.
        case local
        /// Received from the other peer.
        case remote
    }

    /// Local or remote.
    public var side: Side
    /// Candidate type: "host", "srflx", "prflx" or "relay".
    public var type: String
    /// Transport protocol: "udp" or "tcp".
    public var transport: String
    /// IP address (or mDNS name) as signalled.
    public var address: String
    /// Port.
    public var port: Int
    /// Candidate priority (RFC 8445 §5.1.2).
    public var priority: UInt32
    /// True when this candidate is one end of the selected pair (the row is highlighted).
    public var isSelected: Bool

    /// A candidate row from its parts.
    public init(side: Side, type: String, transport: String, address: String, port: Int, priority: UInt32,
                isSelected: Bool = false) {
        self.side = side
        self.type = type
        self.transport = transport
        self.address = address
        self.port = port
        self.priority = priority
        self.isSelected = isSelected
    }
}

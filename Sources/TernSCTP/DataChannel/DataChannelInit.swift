/// W3C `RTCDataChannelInit` (minus `id`/`negotiated` grouping kept flat).
public struct DataChannelInit: Sendable, Equatable {
    /// Whether messages are delivered in order.
    public var ordered: Bool
    /// Partial reliability by retransmission count (exclusive with `maxPacketLifeTime`).
    public var maxRetransmits: UInt16?
    /// Partial reliability by lifetime in milliseconds.
    public var maxPacketLifeTime: UInt16?
    /// Sub-protocol name.
    public var `protocol`: String
    /// Pre-negotiated channel (no DCEP); `id` is required.
    public var negotiated: Bool
    /// SCTP stream identifier.
    public var id: UInt16?
    /// RFC 8832 priority; carried in DATA_CHANNEL_OPEN (not used for scheduling here).
    public var priority: UInt16

    /// Creates a value from its fields.
    public init(ordered: Bool = true, maxRetransmits: UInt16? = nil, maxPacketLifeTime: UInt16? = nil,
                protocol: String = "", negotiated: Bool = false, id: UInt16? = nil, priority: UInt16 = 256) {
        self.ordered = ordered
        self.maxRetransmits = maxRetransmits
        self.maxPacketLifeTime = maxPacketLifeTime
        self.protocol = `protocol`
        self.negotiated = negotiated
        self.id = id
        self.priority = priority
    }

    var channelType: DataChannelType {
        switch (ordered, maxRetransmits, maxPacketLifeTime) {
        case (true, .some, _): .partialReliableRexmit
        case (false, .some, _): .partialReliableRexmitUnordered
        case (true, nil, .some): .partialReliableTimed
        case (false, nil, .some): .partialReliableTimedUnordered
        case (true, nil, nil): .reliable
        case (false, nil, nil): .reliableUnordered
        }
    }

    var reliabilityParameter: UInt32 {
        UInt32(maxRetransmits ?? maxPacketLifeTime ?? 0)
    }
}

/// The fields of DATA_CHANNEL_OPEN (RFC 8832 §5.1).
public struct DCEPOpen: Equatable, Sendable {
    /// RFC 8832 channel type.
    public var channelType: DataChannelType
    /// RFC 8832 §5.1 priority (128 below-normal, 256 normal, 512 high, 1024 extra high).
    public var priority: UInt16
    /// Max retransmissions or lifetime in ms, per `channelType`; ignored for reliable channels.
    public var reliabilityParameter: UInt32
    /// Channel label.
    public var label: String
    /// Sub-protocol name.
    public var `protocol`: String

    /// Creates a value from its fields.
    public init(channelType: DataChannelType, priority: UInt16, reliabilityParameter: UInt32, label: String, protocol: String) {
        self.channelType = channelType
        self.priority = priority
        self.reliabilityParameter = reliabilityParameter
        self.label = label
        self.protocol = `protocol`
    }
}

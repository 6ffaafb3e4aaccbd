/// RFC 8832 §5.1 channel types.
public enum DataChannelType: UInt8, Sendable {
    case reliable = 0x00
    case reliableUnordered = 0x80
    case partialReliableRexmit = 0x01
    case partialReliableRexmitUnordered = 0x81
    case partialReliableTimed = 0x02
    case partialReliableTimedUnordered = 0x82

    /// Whether messages are delivered unordered.
    public var isUnordered: Bool { rawValue & 0x80 != 0 }
}

internal import TernCore

/// Data Channel Establishment Protocol messages (RFC 8832 §5), sent with PPID 50.
///
/// DATA_CHANNEL_OPEN:
/// ```
///  0                   1                   2                   3
///  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |  Message Type |  Channel Type |            Priority           |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |                    Reliability Parameter                      |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |         Label Length          |       Protocol Length         |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// \                             Label                             \
/// \                            Protocol                           \
/// ```
/// DATA_CHANNEL_ACK is the single byte 0x02.
public enum DCEPMessage: Equatable, Sendable {
    case open(DCEPOpen)
    case ack

    static let openType: UInt8 = 0x03
    static let ackType: UInt8 = 0x02

    /// Parses a DCEP message.
    public static func parse(_ bytes: [UInt8]) throws(DataChannelError) -> DCEPMessage {
        var r = ByteReader(bytes)
        do {
            switch try r.readUInt8() {
            case ackType: return .ack
            case openType:
                let rawType = try r.readUInt8()
                let priority = try r.readUInt16()
                let reliability = try r.readUInt32()
                let labelLength = Int(try r.readUInt16())
                let protocolLength = Int(try r.readUInt16())
                let label = try r.readBytes(labelLength)
                let proto = try r.readBytes(protocolLength)
                guard let type = DataChannelType(rawValue: rawType) else {
                    throw DataChannelError.malformedDCEP("unknown channel type 0x\(String(rawType, radix: 16))")
                }
                guard let labelText = String(validating: label, as: UTF8.self),
                      let protoText = String(validating: proto, as: UTF8.self) else {
                    throw DataChannelError.malformedDCEP("label or protocol is not UTF-8")
                }
                return .open(DCEPOpen(channelType: type, priority: priority, reliabilityParameter: reliability,
                                      label: labelText, protocol: protoText))
            case let other:
                throw DataChannelError.malformedDCEP("unknown message type 0x\(String(other, radix: 16))")
            }
        } catch let e as DataChannelError {
            throw e
        } catch {
            throw .malformedDCEP("\(error)")
        }
    }

    /// Serializes the message.
    public func serialize() -> [UInt8] {
        switch self {
        case .ack: return [DCEPMessage.ackType]
        case let .open(o):
            var w = ByteWriter(capacity: 12 + o.label.utf8.count + o.protocol.utf8.count)
            w.write(DCEPMessage.openType)
            w.write(o.channelType.rawValue)
            w.write(o.priority)
            w.write(o.reliabilityParameter)
            w.write(UInt16(truncatingIfNeeded: o.label.utf8.count))
            w.write(UInt16(truncatingIfNeeded: o.protocol.utf8.count))
            w.write(contentsOf: Array(o.label.utf8))
            w.write(contentsOf: Array(o.protocol.utf8))
            return w.finish()
        }
    }
}

/// One RTCP packet of a compound datagram.
public enum RTCPPacket: Sendable, Equatable {
    case senderReport(SenderReport)
    case receiverReport(ReceiverReport)
    case sourceDescription(SourceDescription)
    case goodbye(Goodbye)
    case applicationDefined(ApplicationDefined)
    case genericNACK(GenericNACK)
    case transportWideCC(TransportWideCC)
    case pictureLossIndication(PictureLossIndication)
    case fullIntraRequest(FullIntraRequest)
    case receiverEstimatedMaximumBitrate(ReceiverEstimatedMaximumBitrate)
    /// A type or feedback format this module does not interpret, kept whole.
    case unknown(RawRTCPPacket)

    /// Appends the wire form.
    public func write(to out: inout [UInt8]) {
        switch self {
        case let .senderReport(p): p.write(to: &out)
        case let .receiverReport(p): p.write(to: &out)
        case let .sourceDescription(p): p.write(to: &out)
        case let .goodbye(p): p.write(to: &out)
        case let .applicationDefined(p): p.write(to: &out)
        case let .genericNACK(p): p.write(to: &out)
        case let .transportWideCC(p): p.write(to: &out)
        case let .pictureLossIndication(p): p.write(to: &out)
        case let .fullIntraRequest(p): p.write(to: &out)
        case let .receiverEstimatedMaximumBitrate(p): p.write(to: &out)
        case let .unknown(p): p.write(to: &out)
        }
    }

    /// The wire form of this one packet.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        write(to: &out)
        return out
    }

    /// The wire form of a compound packet: `packets` back to back (RFC 3550 §6.1).
    public static func serialize(_ packets: [RTCPPacket]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(packets.count * 32)
        for packet in packets { packet.write(to: &out) }
        return out
    }
}

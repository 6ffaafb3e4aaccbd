import TernCore

extension RTCPPacket {
    // RFC 3550 §6.4.1, the common header of every RTCP packet:
    //
    //   0                   1                   2                   3
    //   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
    //  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
    //  |V=2|P| RC/FMT  |      PT       |             length            |
    //  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
    //
    // `length` is the packet's size in 32-bit words minus one. With P=1 the last
    // byte of the packet counts its padding octets.

    /// Parses a compound (RFC 3550 §6.1) or reduced-size (RFC 5506) RTCP datagram.
    ///
    /// Packets of unknown type or feedback format are returned as `.unknown`, not
    /// rejected. With `allowReducedSize` false, the first packet must be SR or RR.
    /// - Throws: `RTCPParseError` naming the packet, field and offset.
    public static func parseCompound(_ bytes: ArraySlice<UInt8>, allowReducedSize: Bool = true) throws(RTCPParseError) -> [RTCPPacket] {
        guard !bytes.isEmpty else { throw .empty }
        var packets: [RTCPPacket] = []
        var reader = ByteReader(bytes)
        while !reader.isEmpty {
            let offset = reader.offset
            let header: ArraySlice<UInt8>
            do { header = try reader.readBytes(4) } catch {
                throw .truncated(packet: "header", field: "common header", offset: offset, underlying: error)
            }
            let first = header[header.startIndex]
            guard first >> 6 == 2 else { throw .unsupportedVersion(found: first >> 6, offset: offset) }
            let count = first & 0x1F
            let packetType = header[header.startIndex + 1]
            let length = ((Int(header[header.startIndex + 2]) << 8 | Int(header[header.startIndex + 3])) + 1) * 4
            if packets.isEmpty, !allowReducedSize, packetType != SenderReport.packetType, packetType != ReceiverReport.packetType {
                throw .compoundMustStartWithReport(packetType: packetType)
            }
            let fullBody: ArraySlice<UInt8>
            do { fullBody = try reader.readBytes(length - 4) } catch {
                throw .lengthExceedsInput(packetType: packetType, declared: length, available: reader.count + 4, offset: offset)
            }
            var body = fullBody
            let padded = first & 0x20 != 0
            if padded {
                let pad = Int(body.last ?? 0)
                guard pad > 0, pad <= body.count else { throw .invalidPadding(count: pad, bodyLength: body.count, offset: offset) }
                body = body.dropLast(pad)
            }
            var packet = try parseOne(body: body, count: count, packetType: packetType, offset: offset + 4)
            if case .unknown = packet {
                // Unknown packets are kept exactly as received, padding included.
                packet = .unknown(RawRTCPPacket(count: count, packetType: packetType, padding: padded, body: fullBody))
            }
            packets.append(packet)
        }
        return packets
    }

    /// Parses a datagram held in an array.
    public static func parseCompound(_ bytes: [UInt8], allowReducedSize: Bool = true) throws(RTCPParseError) -> [RTCPPacket] {
        try parseCompound(bytes[...], allowReducedSize: allowReducedSize)
    }

    private static func parseOne(body: ArraySlice<UInt8>, count: UInt8, packetType: UInt8, offset: Int) throws(RTCPParseError) -> RTCPPacket {
        func reader(_ name: String) -> RTCPFieldReader { RTCPFieldReader(body, base: offset, packet: name) }
        switch packetType {
        case SenderReport.packetType:
            var r = reader("SR")
            return .senderReport(try SenderReport(reading: &r, count: count))
        case ReceiverReport.packetType:
            var r = reader("RR")
            return .receiverReport(try ReceiverReport(reading: &r, count: count))
        case SourceDescription.packetType:
            var r = reader("SDES")
            return .sourceDescription(try SourceDescription(reading: &r, count: count))
        case Goodbye.packetType:
            var r = reader("BYE")
            return .goodbye(try Goodbye(reading: &r, count: count))
        case ApplicationDefined.packetType:
            var r = reader("APP")
            return .applicationDefined(try ApplicationDefined(reading: &r, count: count))
        case GenericNACK.packetType where count == GenericNACK.format:
            var r = reader("generic NACK")
            return .genericNACK(try GenericNACK(reading: &r))
        case TransportWideCC.packetType where count == TransportWideCC.format:
            var r = reader("transport-wide CC")
            return .transportWideCC(try TransportWideCC(reading: &r))
        case PictureLossIndication.packetType where count == PictureLossIndication.format:
            var r = reader("PLI")
            return .pictureLossIndication(try PictureLossIndication(reading: &r))
        case FullIntraRequest.packetType where count == FullIntraRequest.format:
            var r = reader("FIR")
            return .fullIntraRequest(try FullIntraRequest(reading: &r))
        case ReceiverEstimatedMaximumBitrate.packetType where count == ReceiverEstimatedMaximumBitrate.format:
            var r = reader("REMB")
            if let remb = try ReceiverEstimatedMaximumBitrate(reading: &r) { return .receiverEstimatedMaximumBitrate(remb) }
            return .unknown(RawRTCPPacket(count: count, packetType: packetType, body: body))
        default:
            return .unknown(RawRTCPPacket(count: count, packetType: packetType, body: body))
        }
    }
}

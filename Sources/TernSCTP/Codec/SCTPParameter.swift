internal import TernCore

/// A variable-length parameter of INIT, INIT ACK, HEARTBEAT and RE-CONFIG chunks
/// (RFC 9260 §3.2.1, RFC 3758 §3.1, RFC 6525 §4). Error causes (§3.3.10) share the layout.
///
/// ```
///  0                   1                   2                   3
///  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |          Parameter Type       |       Parameter Length        |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// \                       Parameter Value (padded to 4)           \
/// ```
public enum SCTPParameter: Equatable, Sendable {
    /// Heartbeat Info (type 1, RFC 9260 §3.3.5): opaque to the peer, echoed back.
    case heartbeatInfo([UInt8])
    /// State Cookie (type 7, RFC 9260 §3.3.3.1).
    case stateCookie([UInt8])
    /// Unrecognized Parameter (type 8): the offending parameter, reported in INIT ACK.
    case unrecognizedParameter([UInt8])
    /// Outgoing SSN Reset Request (type 13, RFC 6525 §4.1).
    case outgoingSSNResetRequest(OutgoingSSNResetRequest)
    /// Incoming SSN Reset Request (type 14, RFC 6525 §4.2).
    case incomingSSNResetRequest(requestSequence: UInt32, streams: [UInt16])
    /// Re-configuration Response (type 16, RFC 6525 §4.4).
    case reconfigResponse(ReconfigResponse)
    /// Supported Extensions (type 0x8008, RFC 5061 §4.2.7): chunk types the sender understands.
    case supportedExtensions([UInt8])
    /// Forward-TSN-Supported (type 0xC000, RFC 3758 §3.1).
    case forwardTSNSupported
    /// Any other parameter, kept verbatim so it re-serializes byte for byte.
    case unknown(type: UInt16, value: [UInt8])

    /// Parameter type codes.
    public enum Kind {
        /// Heartbeat Info (1).
        public static let heartbeatInfo: UInt16 = 1
        /// State Cookie (7).
        public static let stateCookie: UInt16 = 7
        /// Unrecognized Parameter (8).
        public static let unrecognizedParameter: UInt16 = 8
        /// Outgoing SSN Reset Request (13).
        public static let outgoingSSNResetRequest: UInt16 = 13
        /// Incoming SSN Reset Request (14).
        public static let incomingSSNResetRequest: UInt16 = 14
        /// Re-configuration Response (16).
        public static let reconfigResponse: UInt16 = 16
        /// Supported Extensions (0x8008).
        public static let supportedExtensions: UInt16 = 0x8008
        /// Forward-TSN-Supported (0xC000).
        public static let forwardTSNSupported: UInt16 = 0xC000
    }

    /// The parameter type code.
    public var type: UInt16 {
        switch self {
        case .heartbeatInfo: Kind.heartbeatInfo
        case .stateCookie: Kind.stateCookie
        case .unrecognizedParameter: Kind.unrecognizedParameter
        case .outgoingSSNResetRequest: Kind.outgoingSSNResetRequest
        case .incomingSSNResetRequest: Kind.incomingSSNResetRequest
        case .reconfigResponse: Kind.reconfigResponse
        case .supportedExtensions: Kind.supportedExtensions
        case .forwardTSNSupported: Kind.forwardTSNSupported
        case let .unknown(type, _): type
        }
    }

    func valueBytes() -> [UInt8] {
        var v: [UInt8] = []
        switch self {
        case let .heartbeatInfo(b), let .stateCookie(b), let .unrecognizedParameter(b), let .supportedExtensions(b):
            v = b
        case let .outgoingSSNResetRequest(r):
            v.appendBE(r.requestSequence); v.appendBE(r.responseSequence); v.appendBE(r.senderLastTSN)
            for s in r.streams { v.appendBE(s) }
        case let .incomingSSNResetRequest(seq, streams):
            v.appendBE(seq)
            for s in streams { v.appendBE(s) }
        case let .reconfigResponse(r):
            v.appendBE(r.responseSequence); v.appendBE(r.result.rawValue)
            if let s = r.senderNextTSN, let rcv = r.receiverNextTSN { v.appendBE(s); v.appendBE(rcv) }
        case .forwardTSNSupported:
            break
        case let .unknown(_, value):
            v = value
        }
        return v
    }

    static func parse(type: UInt16, value: ArraySlice<UInt8>) throws(SCTPPacketError) -> SCTPParameter {
        var r = ByteReader(value)
        switch type {
        case Kind.heartbeatInfo: return .heartbeatInfo(Array(value))
        case Kind.stateCookie: return .stateCookie(Array(value))
        case Kind.unrecognizedParameter: return .unrecognizedParameter(Array(value))
        case Kind.supportedExtensions: return .supportedExtensions(Array(value))
        case Kind.forwardTSNSupported: return value.isEmpty ? .forwardTSNSupported : .unknown(type: type, value: Array(value))
        case Kind.outgoingSSNResetRequest:
            let (req, resp, last) = try r.sctp("outgoing SSN reset request") { r throws(ByteReaderError) in
                (try r.readUInt32(), try r.readUInt32(), try r.readUInt32())
            }
            guard r.count % 2 == 0 else { throw .invalidField(context: "outgoing SSN reset request", detail: "odd stream list length") }
            var streams: [UInt16] = []
            while !r.isEmpty { streams.append(try r.sctp("stream list") { r throws(ByteReaderError) in try r.readUInt16() }) }
            return .outgoingSSNResetRequest(.init(requestSequence: req, responseSequence: resp, senderLastTSN: last, streams: streams))
        case Kind.incomingSSNResetRequest:
            let req = try r.sctp("incoming SSN reset request") { r throws(ByteReaderError) in try r.readUInt32() }
            guard r.count % 2 == 0 else { throw .invalidField(context: "incoming SSN reset request", detail: "odd stream list length") }
            var streams: [UInt16] = []
            while !r.isEmpty { streams.append(try r.sctp("stream list") { r throws(ByteReaderError) in try r.readUInt16() }) }
            return .incomingSSNResetRequest(requestSequence: req, streams: streams)
        case Kind.reconfigResponse:
            let (seq, result) = try r.sctp("re-configuration response") { r throws(ByteReaderError) in
                (try r.readUInt32(), try r.readUInt32())
            }
            var sender: UInt32?, receiver: UInt32?
            if r.count >= 8 {
                sender = try r.sctp("re-configuration response") { r throws(ByteReaderError) in try r.readUInt32() }
                receiver = try r.sctp("re-configuration response") { r throws(ByteReaderError) in try r.readUInt32() }
            }
            return .reconfigResponse(.init(responseSequence: seq, result: .init(rawValue: result),
                                           senderNextTSN: sender, receiverNextTSN: receiver))
        default:
            return .unknown(type: type, value: Array(value))
        }
    }
}

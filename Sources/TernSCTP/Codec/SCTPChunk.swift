internal import TernCore

/// One chunk of an SCTP packet (RFC 9260 §3.2, RFC 3758 §3.2, RFC 6525 §3.1).
///
/// ```
///  0                   1                   2                   3
///  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |   Chunk Type  | Chunk  Flags  |        Chunk Length           |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// \                          Chunk Value  (padded to 4)           \
/// ```
public enum SCTPChunk: Equatable, Sendable {
    case data(DataChunk)
    case initiation(InitChunk)
    case initiationAck(InitChunk)
    case sack(SackChunk)
    /// HEARTBEAT (§3.3.5): carries a Heartbeat Info parameter.
    case heartbeat([SCTPParameter])
    /// HEARTBEAT ACK (§3.3.6): echoes the Heartbeat Info.
    case heartbeatAck([SCTPParameter])
    /// ABORT (§3.3.7); `reflectsTag` is the T bit.
    case abort(reflectsTag: Bool, causes: [SCTPErrorCause])
    /// SHUTDOWN (§3.3.8).
    case shutdown(cumulativeTSNAck: UInt32)
    case shutdownAck
    /// ERROR (§3.3.10).
    case error([SCTPErrorCause])
    /// COOKIE ECHO (§3.3.11): the State Cookie from INIT ACK.
    case cookieEcho([UInt8])
    case cookieAck
    /// SHUTDOWN COMPLETE (§3.3.13); `reflectsTag` is the T bit.
    case shutdownComplete(reflectsTag: Bool)
    case forwardTSN(ForwardTSNChunk)
    /// RE-CONFIG (RFC 6525 §3.1): one or two re-configuration parameters.
    case reconfig([SCTPParameter])
    /// A chunk type this implementation does not know, kept verbatim.
    case unknown(type: UInt8, flags: UInt8, value: [UInt8])

    /// Chunk type codes.
    public enum Kind {
        /// DATA.
        public static let data: UInt8 = 0
        /// INIT.
        public static let initiation: UInt8 = 1
        /// INIT ACK.
        public static let initiationAck: UInt8 = 2
        /// SACK.
        public static let sack: UInt8 = 3
        /// HEARTBEAT.
        public static let heartbeat: UInt8 = 4
        /// HEARTBEAT ACK.
        public static let heartbeatAck: UInt8 = 5
        /// ABORT.
        public static let abort: UInt8 = 6
        /// SHUTDOWN.
        public static let shutdown: UInt8 = 7
        /// SHUTDOWN ACK.
        public static let shutdownAck: UInt8 = 8
        /// ERROR.
        public static let error: UInt8 = 9
        /// COOKIE ECHO.
        public static let cookieEcho: UInt8 = 10
        /// COOKIE ACK.
        public static let cookieAck: UInt8 = 11
        /// SHUTDOWN COMPLETE.
        public static let shutdownComplete: UInt8 = 14
        /// RE-CONFIG (RFC 6525).
        public static let reconfig: UInt8 = 130
        /// FORWARD TSN (RFC 3758).
        public static let forwardTSN: UInt8 = 192
    }

    /// The chunk type code.
    public var type: UInt8 {
        switch self {
        case .data: Kind.data
        case .initiation: Kind.initiation
        case .initiationAck: Kind.initiationAck
        case .sack: Kind.sack
        case .heartbeat: Kind.heartbeat
        case .heartbeatAck: Kind.heartbeatAck
        case .abort: Kind.abort
        case .shutdown: Kind.shutdown
        case .shutdownAck: Kind.shutdownAck
        case .error: Kind.error
        case .cookieEcho: Kind.cookieEcho
        case .cookieAck: Kind.cookieAck
        case .shutdownComplete: Kind.shutdownComplete
        case .forwardTSN: Kind.forwardTSN
        case .reconfig: Kind.reconfig
        case let .unknown(type, _, _): type
        }
    }

    /// Parses the chunk value for `type`. Unknown types come back as `.unknown`.
    static func parse(type: UInt8, flags: UInt8, value: ArraySlice<UInt8>) throws(SCTPPacketError) -> SCTPChunk {
        switch type {
        case Kind.data: return .data(try DataChunk.parse(flags: flags, value: value))
        case Kind.initiation: return .initiation(try InitChunk.parse(value: value, context: "INIT chunk"))
        case Kind.initiationAck: return .initiationAck(try InitChunk.parse(value: value, context: "INIT ACK chunk"))
        case Kind.sack: return .sack(try SackChunk.parse(value: value))
        case Kind.heartbeat: return .heartbeat(try parameters(value))
        case Kind.heartbeatAck: return .heartbeatAck(try parameters(value))
        case Kind.abort: return .abort(reflectsTag: flags & 1 != 0, causes: try causes(value))
        case Kind.shutdown:
            var r = ByteReader(value)
            return .shutdown(cumulativeTSNAck: try r.sctp("SHUTDOWN chunk") { r throws(ByteReaderError) in try r.readUInt32() })
        case Kind.shutdownAck: return .shutdownAck
        case Kind.error: return .error(try causes(value))
        case Kind.cookieEcho: return .cookieEcho(Array(value))
        case Kind.cookieAck: return .cookieAck
        case Kind.shutdownComplete: return .shutdownComplete(reflectsTag: flags & 1 != 0)
        case Kind.forwardTSN: return .forwardTSN(try ForwardTSNChunk.parse(value: value))
        case Kind.reconfig: return .reconfig(try parameters(value))
        default: return .unknown(type: type, flags: flags, value: Array(value))
        }
    }

    private static func parameters(_ value: ArraySlice<UInt8>) throws(SCTPPacketError) -> [SCTPParameter] {
        var r = ByteReader(value)
        var out: [SCTPParameter] = []
        for tlv in try TLVList.parse(&r) { out.append(try SCTPParameter.parse(type: tlv.type, value: tlv.value)) }
        return out
    }

    private static func causes(_ value: ArraySlice<UInt8>) throws(SCTPPacketError) -> [SCTPErrorCause] {
        var r = ByteReader(value)
        return try TLVList.parse(&r).map { SCTPErrorCause(code: $0.type, value: Array($0.value)) }
    }

    /// Appends the chunk, header and padding included.
    func write(into out: inout [UInt8]) {
        if case let .data(d) = self { d.write(into: &out); return }
        let start = out.count
        var flags: UInt8 = 0
        out.append(type)
        out.append(0)
        out.appendBE(UInt16(0))
        var lastPad = 0
        switch self {
        case .data: break
        case let .initiation(i), let .initiationAck(i): lastPad = i.writeValue(into: &out)
        case let .sack(s): s.writeValue(into: &out)
        case let .heartbeat(p), let .heartbeatAck(p), let .reconfig(p):
            lastPad = TLVList.write(p.map { ($0.type, $0.valueBytes()) }, into: &out)
        case let .abort(t, causes):
            flags = t ? 1 : 0
            lastPad = TLVList.write(causes.map { ($0.code, $0.value) }, into: &out)
        case let .error(causes): lastPad = TLVList.write(causes.map { ($0.code, $0.value) }, into: &out)
        case let .shutdown(cum): out.appendBE(cum)
        case .shutdownAck, .cookieAck: break
        case let .cookieEcho(c): out.append(contentsOf: c)
        case let .shutdownComplete(t): flags = t ? 1 : 0
        case let .forwardTSN(f): f.writeValue(into: &out)
        case let .unknown(_, f, value):
            flags = f
            out.append(contentsOf: value)
        }
        out[start + 1] = flags
        out.patchBE(UInt16(truncatingIfNeeded: out.count - start - lastPad), at: start + 2)
        out.padTo4()
    }
}

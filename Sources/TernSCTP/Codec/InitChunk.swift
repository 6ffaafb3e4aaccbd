internal import TernCore

/// INIT and INIT ACK chunks (RFC 9260 §3.3.2, §3.3.3): the same fixed fields and a parameter list.
///
/// ```
///  0                   1                   2                   3
///  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |   Type = 1/2  |  Chunk Flags  |      Chunk Length             |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |                         Initiate Tag                          |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |          Advertised Receiver Window Credit (a_rwnd)           |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |  Number of Outbound Streams   |   Number of Inbound Streams   |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |                          Initial TSN                          |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// \              Optional/Variable-Length Parameters              \
/// ```
public struct InitChunk: Equatable, Sendable {
    /// Verification tag the sender expects on packets to it.
    public var initiateTag: UInt32
    /// a_rwnd: receive buffer space in bytes.
    public var advertisedReceiverWindowCredit: UInt32
    /// Number of outbound streams (OS).
    public var outboundStreams: UInt16
    /// Maximum number of inbound streams (MIS).
    public var inboundStreams: UInt16
    /// First TSN the sender will use.
    public var initialTSN: UInt32
    /// Optional/variable-length parameters, in order.
    public var parameters: [SCTPParameter]

    /// Creates a value from its fields.
    public init(initiateTag: UInt32, advertisedReceiverWindowCredit: UInt32, outboundStreams: UInt16,
                inboundStreams: UInt16, initialTSN: UInt32, parameters: [SCTPParameter]) {
        self.initiateTag = initiateTag
        self.advertisedReceiverWindowCredit = advertisedReceiverWindowCredit
        self.outboundStreams = outboundStreams
        self.inboundStreams = inboundStreams
        self.initialTSN = initialTSN
        self.parameters = parameters
    }

    /// The State Cookie parameter (INIT ACK only).
    public var stateCookie: [UInt8]? {
        for case let .stateCookie(c) in parameters { return c }
        return nil
    }

    /// Whether the sender announced PR-SCTP (RFC 3758 §3.1).
    public var supportsForwardTSN: Bool {
        parameters.contains { p in
            if case .forwardTSNSupported = p { return true }
            if case let .supportedExtensions(types) = p { return types.contains(SCTPChunk.Kind.forwardTSN) }
            return false
        }
    }

    /// Whether the sender announced RE-CONFIG (RFC 6525 §5.1).
    public var supportsReconfig: Bool {
        parameters.contains { p in
            if case let .supportedExtensions(types) = p { return types.contains(SCTPChunk.Kind.reconfig) }
            return false
        }
    }

    /// The largest INIT accepted from a description (`a=sctp-init`): an INIT carries a few small
    /// parameters; sctp-proto uses the same bound.
    public static let maximumSerializedSize = 2048

    /// The chunk, header included, as SNAP carries it in `a=sctp-init` (draft-hancke-tsvwg-snap
    /// §4.2, §5.2): no common header, and no padding after the last parameter.
    public var serializedChunk: [UInt8] {
        var bytes: [UInt8] = []
        SCTPChunk.initiation(self).write(into: &bytes)
        let length = bytes.count >= 4 ? Int(bytes[2]) << 8 | Int(bytes[3]) : bytes.count
        return Array(bytes.prefix(length))
    }

    /// Reads an INIT chunk from `a=sctp-init` (header included; padding after it tolerated).
    public init(serializedChunk bytes: [UInt8]) throws(SCTPPacketError) {
        let context = "a=sctp-init"
        guard bytes.count <= Self.maximumSerializedSize else {
            throw .invalidField(context: context, detail: "\(bytes.count) bytes, more than \(Self.maximumSerializedSize)")
        }
        guard bytes.count >= 4, bytes[0] == SCTPChunk.Kind.initiation else {
            throw .invalidField(context: context, detail: "not an INIT chunk")
        }
        let length = Int(bytes[2]) << 8 | Int(bytes[3])
        guard length >= 4, length <= bytes.count, bytes.count - length < 4 else {
            throw .invalidField(context: context, detail: "chunk length \(length) for \(bytes.count) bytes")
        }
        self = try InitChunk.parse(value: bytes[4..<length], context: context)
    }

    static func parse(value: ArraySlice<UInt8>, context: String) throws(SCTPPacketError) -> InitChunk {
        var r = ByteReader(value)
        let (tag, rwnd, os, mis, tsn) = try r.sctp(context) { r throws(ByteReaderError) in
            (try r.readUInt32(), try r.readUInt32(), try r.readUInt16(), try r.readUInt16(), try r.readUInt32())
        }
        // RFC 9260 §3.3.2: Initiate Tag, OS and MIS must not be zero.
        guard tag != 0 else { throw .invalidField(context: context, detail: "Initiate Tag is 0") }
        guard os != 0, mis != 0 else { throw .invalidField(context: context, detail: "zero stream count") }
        var params: [SCTPParameter] = []
        for tlv in try TLVList.parse(&r) { params.append(try SCTPParameter.parse(type: tlv.type, value: tlv.value)) }
        return InitChunk(initiateTag: tag, advertisedReceiverWindowCredit: rwnd, outboundStreams: os,
                         inboundStreams: mis, initialTSN: tsn, parameters: params)
    }

    func writeValue(into out: inout [UInt8]) -> Int {
        out.appendBE(initiateTag)
        out.appendBE(advertisedReceiverWindowCredit)
        out.appendBE(outboundStreams)
        out.appendBE(inboundStreams)
        out.appendBE(initialTSN)
        return TLVList.write(parameters.map { ($0.type, $0.valueBytes()) }, into: &out)
    }
}

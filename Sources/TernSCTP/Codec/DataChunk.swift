internal import TernCore

/// DATA chunk (RFC 9260 §3.3.1).
///
/// ```
///  0                   1                   2                   3
///  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |   Type = 0    |  Res  |I|U|B|E|            Length             |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |                              TSN                              |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |      Stream Identifier S      |   Stream Sequence Number n    |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |                  Payload Protocol Identifier                  |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// \                 User Data (seq n of Stream S)                 \
/// ```
public struct DataChunk: Equatable, Sendable {
    /// Raw flag bits (I=0x08, U=0x04, B=0x02, E=0x01).
    public var flags: UInt8
    /// Transmission Sequence Number.
    public var tsn: UInt32
    /// Stream Identifier.
    public var streamIdentifier: UInt16
    /// Stream Sequence Number.
    public var streamSequenceNumber: UInt16
    /// Payload Protocol Identifier (big-endian on the wire).
    public var payloadProtocolIdentifier: UInt32
    /// The user data; a slice of the received packet (no copy) or of the sent message.
    public var userData: ArraySlice<UInt8>

    /// Creates a value from its fields.
    public init(tsn: UInt32, streamIdentifier: UInt16, streamSequenceNumber: UInt16, payloadProtocolIdentifier: UInt32,
                userData: ArraySlice<UInt8>, unordered: Bool = false, beginning: Bool = true, ending: Bool = true,
                immediate: Bool = false) {
        self.flags = (immediate ? 0x08 : 0) | (unordered ? 0x04 : 0) | (beginning ? 0x02 : 0) | (ending ? 0x01 : 0)
        self.tsn = tsn
        self.streamIdentifier = streamIdentifier
        self.streamSequenceNumber = streamSequenceNumber
        self.payloadProtocolIdentifier = payloadProtocolIdentifier
        self.userData = userData
    }

    /// U bit: deliver without regard to the stream sequence number.
    public var isUnordered: Bool { flags & 0x04 != 0 }
    /// B bit: first fragment of a user message.
    public var isBeginning: Bool { flags & 0x02 != 0 }
    /// E bit: last fragment of a user message.
    public var isEnding: Bool { flags & 0x01 != 0 }
    /// I bit (RFC 7053): the receiver should SACK without delay.
    public var isImmediate: Bool { flags & 0x08 != 0 }

    /// Header bytes before the user data.
    public static let headerSize = 16

    static func parse(flags: UInt8, value: ArraySlice<UInt8>) throws(SCTPPacketError) -> DataChunk {
        var r = ByteReader(value)
        let (tsn, sid, ssn, ppid) = try r.sctp("DATA chunk") { r throws(ByteReaderError) in
            (try r.readUInt32(), try r.readUInt16(), try r.readUInt16(), try r.readUInt32())
        }
        // RFC 9260 §3.3.1: a DATA chunk with no user data is a protocol violation.
        guard !r.isEmpty else { throw .invalidField(context: "DATA chunk", detail: "no user data") }
        var chunk = DataChunk(tsn: tsn, streamIdentifier: sid, streamSequenceNumber: ssn,
                              payloadProtocolIdentifier: ppid, userData: r.readRemaining())
        chunk.flags = flags
        return chunk
    }

    func write(into out: inout [UInt8]) {
        out.append(SCTPChunk.Kind.data)
        out.append(flags)
        out.appendBE(UInt16(truncatingIfNeeded: DataChunk.headerSize + userData.count))
        out.appendBE(tsn)
        out.appendBE(streamIdentifier)
        out.appendBE(streamSequenceNumber)
        out.appendBE(payloadProtocolIdentifier)
        out.append(contentsOf: userData)
        out.padTo4()
    }

    /// Bytes this chunk takes in a packet, padding included.
    var paddedSize: Int { (DataChunk.headerSize + userData.count + 3) & ~3 }
}

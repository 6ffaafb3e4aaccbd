internal import TernCore

/// SACK chunk (RFC 9260 §3.3.4).
///
/// ```
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |   Type = 3    |Chunk  Flags   |      Chunk Length             |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |                      Cumulative TSN Ack                       |
/// |          Advertised Receiver Window Credit (a_rwnd)           |
/// | Number of Gap Ack Blocks = N  |  Number of Duplicate TSNs = M |
/// |    Gap Ack Block #1 Start     |     Gap Ack Block #1 End      |
/// /                              ...                              /
/// |                        Duplicate TSN 1                        |
/// /                              ...                              /
/// ```
public struct SackChunk: Equatable, Sendable {
    /// A gap ack block: TSNs `cumulativeTSNAck + start ... cumulativeTSNAck + end` were received.
    public struct GapBlock: Equatable, Sendable {
        /// Offset of the first TSN of the block from the cumulative TSN ack.
        public var start: UInt16
        /// Offset of the last TSN of the block from the cumulative TSN ack.
        public var end: UInt16
        /// Creates a value from its fields.
        public init(start: UInt16, end: UInt16) { self.start = start; self.end = end }
    }

    /// Highest TSN received in sequence.
    public var cumulativeTSNAck: UInt32
    /// a_rwnd: receive buffer space in bytes.
    public var advertisedReceiverWindowCredit: UInt32
    /// Blocks of TSNs received above the cumulative ack.
    public var gapBlocks: [GapBlock]
    /// TSNs received more than once since the last SACK.
    public var duplicateTSNs: [UInt32]

    /// Creates a value from its fields.
    public init(cumulativeTSNAck: UInt32, advertisedReceiverWindowCredit: UInt32, gapBlocks: [GapBlock] = [],
                duplicateTSNs: [UInt32] = []) {
        self.cumulativeTSNAck = cumulativeTSNAck
        self.advertisedReceiverWindowCredit = advertisedReceiverWindowCredit
        self.gapBlocks = gapBlocks
        self.duplicateTSNs = duplicateTSNs
    }

    static func parse(value: ArraySlice<UInt8>) throws(SCTPPacketError) -> SackChunk {
        var r = ByteReader(value)
        let (cum, rwnd, gaps, dups) = try r.sctp("SACK chunk") { r throws(ByteReaderError) in
            (try r.readUInt32(), try r.readUInt32(), Int(try r.readUInt16()), Int(try r.readUInt16()))
        }
        guard r.count >= gaps * 4 + dups * 4 else {
            throw .invalidField(context: "SACK chunk", detail: "\(gaps) gap blocks and \(dups) dup TSNs do not fit in \(r.count) bytes")
        }
        var blocks: [GapBlock] = []
        blocks.reserveCapacity(gaps)
        for _ in 0..<gaps {
            let (s, e) = try r.sctp("SACK gap block") { r throws(ByteReaderError) in (try r.readUInt16(), try r.readUInt16()) }
            blocks.append(GapBlock(start: s, end: e))
        }
        var dupTSNs: [UInt32] = []
        for _ in 0..<dups { dupTSNs.append(try r.sctp("SACK dup TSN") { r throws(ByteReaderError) in try r.readUInt32() }) }
        return SackChunk(cumulativeTSNAck: cum, advertisedReceiverWindowCredit: rwnd, gapBlocks: blocks, duplicateTSNs: dupTSNs)
    }

    func writeValue(into out: inout [UInt8]) {
        out.appendBE(cumulativeTSNAck)
        out.appendBE(advertisedReceiverWindowCredit)
        out.appendBE(UInt16(truncatingIfNeeded: gapBlocks.count))
        out.appendBE(UInt16(truncatingIfNeeded: duplicateTSNs.count))
        for b in gapBlocks { out.appendBE(b.start); out.appendBE(b.end) }
        for d in duplicateTSNs { out.appendBE(d) }
    }
}

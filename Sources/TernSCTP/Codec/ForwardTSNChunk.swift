internal import TernCore

/// FORWARD TSN chunk (RFC 3758 §3.2): the receiver moves its cumulative TSN to
/// `newCumulativeTSN`, skipping abandoned messages.
public struct ForwardTSNChunk: Equatable, Sendable {
    /// The last skipped SSN of an ordered stream.
    public struct SkippedStream: Equatable, Sendable {
        /// Stream Identifier.
        public var streamIdentifier: UInt16
        /// Stream Sequence Number.
        public var streamSequenceNumber: UInt16
        /// Creates a value from its fields.
        public init(streamIdentifier: UInt16, streamSequenceNumber: UInt16) {
            self.streamIdentifier = streamIdentifier
            self.streamSequenceNumber = streamSequenceNumber
        }
    }
    /// The receiver's new cumulative TSN.
    public var newCumulativeTSN: UInt32
    /// Last skipped SSN of each ordered stream.
    public var skipped: [SkippedStream]

    /// Creates a value from its fields.
    public init(newCumulativeTSN: UInt32, skipped: [SkippedStream]) {
        self.newCumulativeTSN = newCumulativeTSN
        self.skipped = skipped
    }

    static func parse(value: ArraySlice<UInt8>) throws(SCTPPacketError) -> ForwardTSNChunk {
        var r = ByteReader(value)
        let cum = try r.sctp("FORWARD TSN chunk") { r throws(ByteReaderError) in try r.readUInt32() }
        guard r.count % 4 == 0 else { throw .invalidField(context: "FORWARD TSN chunk", detail: "stream list not a multiple of 4") }
        var skipped: [SkippedStream] = []
        while !r.isEmpty {
            let (s, n) = try r.sctp("FORWARD TSN stream") { r throws(ByteReaderError) in (try r.readUInt16(), try r.readUInt16()) }
            skipped.append(SkippedStream(streamIdentifier: s, streamSequenceNumber: n))
        }
        return ForwardTSNChunk(newCumulativeTSN: cum, skipped: skipped)
    }

    func writeValue(into out: inout [UInt8]) {
        out.appendBE(newCumulativeTSN)
        for s in skipped { out.appendBE(s.streamIdentifier); out.appendBE(s.streamSequenceNumber) }
    }
}

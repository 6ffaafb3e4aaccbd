internal import TernCore

/// Splits encoded VP8 frames into RTP payloads (RFC 7741 §4).
///
/// Every payload starts with a 4-byte descriptor: X = 1, I = 1 with a 15-bit
/// PictureID (M = 1) that increases by one per frame and wraps at 2^15 (§4.2).
/// The first payload of a frame has S = 1 and PID = 0 (§4.4: the frame starts a
/// partition); the rest have S = 0. The last payload of a frame carries the RTP
/// marker bit (§4.1). All payloads of a frame share the frame's RTP timestamp.
public struct VP8Packetizer: Sendable {
    /// Largest RTP payload to produce, descriptor included.
    public let maxPayloadSize: Int
    /// The PictureID the next frame will carry.
    public private(set) var nextPictureID: UInt16

    /// Bytes of descriptor per payload.
    public static let descriptorLength = 4

    /// A packetizer. `maxPayloadSize` must exceed the 4-byte descriptor (a programming error otherwise);
    /// `initialPictureID` should be random per stream (§4.2) and is reduced to 15 bits.
    public init(maxPayloadSize: Int = 1200, initialPictureID: UInt16 = 0) {
        precondition(maxPayloadSize > Self.descriptorLength, "VP8 payload size must exceed the descriptor")
        self.maxPayloadSize = maxPayloadSize
        self.nextPictureID = initialPictureID & 0x7FFF
    }

    /// The payloads for one encoded frame, in sending order. An empty frame yields no payloads.
    public mutating func packetize(_ frame: EncodedVideoFrame) -> [RTPPayloadUnit] {
        guard !frame.data.isEmpty else { return [] }
        let pictureID = nextPictureID
        nextPictureID = (nextPictureID &+ 1) & 0x7FFF
        let chunkSize = maxPayloadSize - Self.descriptorLength
        var units: [RTPPayloadUnit] = []
        units.reserveCapacity((frame.data.count + chunkSize - 1) / chunkSize)
        var start = frame.data.startIndex
        while start < frame.data.endIndex {
            let end = min(start + chunkSize, frame.data.endIndex)
            let descriptor = VP8PayloadDescriptor(startOfPartition: start == frame.data.startIndex,
                                                  partitionIndex: 0, pictureID: .long(pictureID))
            var writer = ByteWriter(capacity: Self.descriptorLength + end - start)
            descriptor.serialize(into: &writer)
            writer.write(contentsOf: frame.data[start..<end])
            units.append(RTPPayloadUnit(payload: writer.bytes, marker: end == frame.data.endIndex,
                                        timestamp: frame.timestamp))
            start = end
        }
        return units
    }
}

/// A user message delivered by the association.
public struct SCTPMessage: Sendable, Equatable {
    /// Stream Identifier.
    public var streamIdentifier: UInt16
    /// Payload Protocol Identifier (RFC 8831 §8: 50 DCEP, 51 string, 53 binary, 56/57 empty).
    public var payloadProtocolIdentifier: UInt32
    /// The reassembled user message.
    public var payload: [UInt8]
    /// Whether it was sent unordered (U bit).
    public var unordered: Bool

    /// Creates a value from its fields.
    public init(streamIdentifier: UInt16, payloadProtocolIdentifier: UInt32, payload: [UInt8], unordered: Bool = false) {
        self.streamIdentifier = streamIdentifier
        self.payloadProtocolIdentifier = payloadProtocolIdentifier
        self.payload = payload
        self.unordered = unordered
    }
}

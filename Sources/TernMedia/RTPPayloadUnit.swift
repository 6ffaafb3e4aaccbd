/// What a payloader hands to RTP and a depayloader takes from it: the payload
/// bytes plus the header fields the payload format defines. Deliberately free of
/// any RTP packet type so that TernMedia does not depend on TernRTP.
public struct RTPPayloadUnit: Sendable, Hashable {
    /// The RTP payload (everything after the RTP header and extensions).
    public var payload: [UInt8]
    /// The RTP marker bit (RFC 3550 §5.1) as the payload format defines it.
    public var marker: Bool
    /// The RTP timestamp in the payload format's clock rate.
    public var timestamp: UInt32
    /// The RTP sequence number. Payloaders leave it 0 (RTP assigns it);
    /// depayloaders that reassemble frames need the received one to see gaps.
    public var sequenceNumber: UInt16

    /// A unit with the given fields.
    public init(payload: [UInt8], marker: Bool, timestamp: UInt32, sequenceNumber: UInt16 = 0) {
        self.payload = payload
        self.marker = marker
        self.timestamp = timestamp
        self.sequenceNumber = sequenceNumber
    }
}

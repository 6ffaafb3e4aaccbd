/// A decrypted packet as the transport sent or received it, for debugging tools (`tern call
/// --pcap`): RTP and RTCP after SRTP unprotect / before protect, SCTP packets inside DTLS.
public struct TappedPacket: Sendable {
    public enum Direction: String, Sendable { case inbound, outbound }
    public enum Kind: String, Sendable { case rtp, rtcp, sctp }

    public var direction: Direction
    public var kind: Kind
    public var bytes: [UInt8]

    public init(direction: Direction, kind: Kind, bytes: [UInt8]) {
        self.direction = direction
        self.kind = kind
        self.bytes = bytes
    }
}

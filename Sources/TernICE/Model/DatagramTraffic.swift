/// What a transport carried for the layers above it (W3C `RTCTransportStats` `packetsSent`,
/// `bytesSent`, `packetsReceived`, `bytesReceived`): datagrams handed to the socket and
/// delivered up (DTLS, SRTP, SRTCP; their UDP payload bytes), whatever pair carried them.
/// ICE's own checks and consent, and Tern's RTT probes, are not counted (W3C leaves out
/// connectivity checks). A datagram the socket refused is not counted as sent.
public struct DatagramTraffic: Sendable, Equatable {
    public var packetsSent: UInt64
    public var bytesSent: UInt64
    public var packetsReceived: UInt64
    public var bytesReceived: UInt64

    public init(packetsSent: UInt64 = 0, bytesSent: UInt64 = 0, packetsReceived: UInt64 = 0, bytesReceived: UInt64 = 0) {
        self.packetsSent = packetsSent
        self.bytesSent = bytesSent
        self.packetsReceived = packetsReceived
        self.bytesReceived = bytesReceived
    }
}

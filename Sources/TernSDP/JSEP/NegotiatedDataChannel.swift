/// The negotiated SCTP association over DTLS (RFC 8841).
public struct NegotiatedDataChannel: Sendable, Equatable {
    /// The section's mid.
    public var mid: String
    /// Index of the m= line.
    public var mLineIndex: Int
    /// Our SCTP port.
    public var localSCTPPort: Int
    /// The remote SCTP port (default 5000 when absent, RFC 8841 §5).
    public var remoteSCTPPort: Int
    /// The largest message the remote accepts (RFC 8841 §6: 65536 when absent; 0 means no limit).
    public var remoteMaxMessageSize: UInt64
    /// The largest SCTP packet the remote reads whole (`a=x-tern-sctp-max-packet`), if it said.
    public var remoteMaxPacket: Int? = nil
    /// The remote's INIT chunk (`a=sctp-init`), when both descriptions carried one: SNAP is
    /// negotiated and the association needs no handshake (draft-hancke-tsvwg-snap §6).
    public var remoteSCTPInit: [UInt8]? = nil
}

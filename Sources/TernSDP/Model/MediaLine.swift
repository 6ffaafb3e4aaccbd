/// The `m=` line (RFC 8866 §5.14): `m=<media> <port>[/<number of ports>] <proto> <fmt> ...`.
public struct MediaLine: Sendable, Equatable {
    /// Media type: `audio`, `video`, `application`, or anything else (kept).
    public var media: String
    /// Transport port; 0 marks a rejected or stopped section (RFC 3264 §6, RFC 9429 §5.2.2).
    public var port: Int
    /// Optional `/<number of ports>`.
    public var portCount: Int?
    /// Transport protocol, e.g. `UDP/TLS/RTP/SAVPF` or `UDP/DTLS/SCTP`.
    public var proto: String
    /// Media formats: RTP payload types, or `webrtc-datachannel` for SCTP.
    public var formats: [String]

    /// Creates an m= line.
    public init(media: String, port: Int, portCount: Int? = nil, proto: String, formats: [String]) {
        self.media = media
        self.port = port
        self.portCount = portCount
        self.proto = proto
        self.formats = formats
    }

    init(parsing text: SDPBytes) throws(SDPValueError) {
        let parts = Tokens.fields(text)
        guard parts.count >= 3 else { throw SDPValueError("expected `<media> <port> <proto> <fmt> ...`") }
        media = Tokens.string(parts[0])
        let portText: SDPBytes
        if let (p, count) = Tokens.splitOnce(parts[1], at: UInt8(ascii: "/")) {
            guard let n = Tokens.int(count) else { throw SDPValueError("number of ports is not a number") }
            portText = p
            portCount = n
        } else {
            portText = parts[1]
            portCount = nil
        }
        guard let port = Tokens.int(portText), port <= 65535 else {
            throw SDPValueError("port is not a number between 0 and 65535")
        }
        self.port = port
        proto = Tokens.string(parts[2])
        formats = parts.dropFirst(3).map(Tokens.string)
    }

    /// The payload types of `formats`, skipping any that are not numbers.
    public var payloadTypes: [UInt8] { formats.compactMap { Tokens.number($0, as: UInt8.self) } }

    /// True for the RTP profiles (`RTP/AVP`, `RTP/SAVPF`, `UDP/TLS/RTP/SAVPF`, ...).
    public var isRTP: Bool { proto.uppercased().contains("RTP/") }

    var text: String { SDPWriter.render(self) }
}

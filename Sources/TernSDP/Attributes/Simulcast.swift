/// `a=simulcast:<direction> <streams> [<direction> <streams>]` (RFC 8853 §5.1), e.g. `send h;m;~l`.
///
/// Each stream is a list of alternative rid-ids; a leading `~` marks a paused stream. The draft form
/// `send rid=a;b` (older Firefox) is accepted too.
public struct Simulcast: SDPAttributeValue, SDPBytesParsable {
    public static let attributeName = "simulcast"

    /// One rid-id in a stream's alternatives.
    public struct Alternative: Sendable, Equatable {
        /// The rid-id.
        public var rid: String
        /// True when written with `~` (initially paused).
        public var paused: Bool
        /// Creates an alternative.
        public init(rid: String, paused: Bool = false) {
            self.rid = rid
            self.paused = paused
        }
    }

    /// Streams sent: each element is one stream's alternatives.
    public var send: [[Alternative]]
    /// Streams received.
    public var receive: [[Alternative]]

    /// Creates a simulcast attribute.
    public init(send: [[Alternative]] = [], receive: [[Alternative]] = []) {
        self.send = send
        self.receive = receive
    }

    public init(attributeValue: Substring) throws(SDPValueError) {
        self = try Tokens.withBytes(attributeValue) { bytes throws(SDPValueError) in try Self(bytes: bytes) }
    }

    init(bytes: SDPBytes) throws(SDPValueError) {
        let parts = Tokens.fields(bytes)
        guard !parts.isEmpty, parts.count % 2 == 0 else { throw SDPValueError("expected `<send|recv> <streams>` pairs") }
        send = []
        receive = []
        var index = 0
        while index < parts.count {
            var list = parts[index + 1]
            if Tokens.hasPrefix(list, "rid=") { list = list.dropFirst(4) }
            let streams = Tokens.split(list, on: UInt8(ascii: ";")).map { stream in
                Tokens.split(stream, on: UInt8(ascii: ",")).map { alt in
                    alt.first == UInt8(ascii: "~") ? Alternative(rid: Tokens.string(alt.dropFirst()), paused: true)
                        : Alternative(rid: Tokens.string(alt))
                }
            }
            if Tokens.equalsIgnoringCase(parts[index], "send") {
                send = streams
            } else if Tokens.equalsIgnoringCase(parts[index], "recv") {
                receive = streams
            } else {
                throw SDPValueError("simulcast direction must be send or recv")
            }
            index += 2
        }
    }

    public var attributeValue: String {
        func render(_ streams: [[Alternative]]) -> String {
            streams.map { $0.map { ($0.paused ? "~" : "") + $0.rid }.joined(separator: ",") }.joined(separator: ";")
        }
        var parts: [String] = []
        if !send.isEmpty { parts.append("send \(render(send))") }
        if !receive.isEmpty { parts.append("recv \(render(receive))") }
        return parts.joined(separator: " ")
    }
}

/// `a=rtpmap:<payload type> <encoding name>/<clock rate>[/<encoding parameters>]` (RFC 8866 §6.6).
public struct RTPMap: SDPAttributeValue {
    public static let attributeName = "rtpmap"
    /// RTP payload type (0–127).
    public var payloadType: UInt8
    /// Encoding name as written (`opus`, `VP8`, `rtx`, ...); compare case-insensitively.
    public var encodingName: String
    /// Clock rate in Hz.
    public var clockRate: Int
    /// Encoding parameters: the channel count for audio.
    public var channels: Int?

    /// Creates an rtpmap.
    public init(payloadType: UInt8, encodingName: String, clockRate: Int, channels: Int? = nil) {
        self.payloadType = payloadType
        self.encodingName = encodingName
        self.clockRate = clockRate
        self.channels = channels
    }

    public init(attributeValue: Substring) throws(SDPValueError) {
        let parts = Tokens.fields(attributeValue)
        guard parts.count == 2 else { throw SDPValueError("expected `<payload type> <encoding>/<clock rate>`") }
        guard let pt = Tokens.number(parts[0], as: UInt8.self), pt <= 127 else {
            throw SDPValueError("payload type is not a number")
        }
        let pieces = Tokens.split(parts[1], on: UInt8(ascii: "/"))
        guard pieces.count >= 2, pieces.count <= 3, !pieces[0].isEmpty else {
            throw SDPValueError("expected `<encoding>/<clock rate>[/<channels>]`")
        }
        guard let rate = Tokens.int(pieces[1]) else { throw SDPValueError("clock rate is not a number") }
        payloadType = pt
        encodingName = String(pieces[0])
        clockRate = rate
        if pieces.count == 3 {
            guard let ch = Tokens.int(pieces[2]) else { throw SDPValueError("channel count is not a number") }
            channels = ch
        }
    }

    public var attributeValue: String {
        let base = "\(payloadType) \(encodingName)/\(clockRate)"
        return channels.map { "\(base)/\($0)" } ?? base
    }
}

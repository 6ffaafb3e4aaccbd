/// `a=rtpmap:<payload type> <encoding name>/<clock rate>[/<encoding parameters>]` (RFC 8866 §6.6).
public struct RTPMap: SDPAttributeValue, SDPBytesParsable {
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
        self = try Tokens.withBytes(attributeValue) { bytes throws(SDPValueError) in try Self(bytes: bytes) }
    }

    init(bytes: SDPBytes) throws(SDPValueError) {
        let fields = try Self.scan(bytes)
        payloadType = fields.payloadType
        encodingName = Tokens.string(fields.name)
        clockRate = fields.clockRate
        channels = fields.channels
    }

    static func validate(bytes: SDPBytes) throws(SDPValueError) { _ = try scan(bytes) }

    private static func scan(_ bytes: SDPBytes) throws(SDPValueError)
        -> (payloadType: UInt8, name: SDPBytes, clockRate: Int, channels: Int?) {
        var fields = FieldScanner(bytes)
        guard let ptText = fields.next(), let encoding = fields.next(), fields.next() == nil else {
            throw SDPValueError("expected `<payload type> <encoding>/<clock rate>`")
        }
        guard let pt = Tokens.number(ptText, as: UInt8.self), pt <= 127 else {
            throw SDPValueError("payload type is not a number")
        }
        guard let (name, rateAndChannels) = Tokens.splitOnce(encoding, at: UInt8(ascii: "/")), !name.isEmpty else {
            throw SDPValueError("expected `<encoding>/<clock rate>[/<channels>]`")
        }
        let rateText: SDPBytes
        let channels: Int?
        if let (rate, channelText) = Tokens.splitOnce(rateAndChannels, at: UInt8(ascii: "/")) {
            guard let ch = Tokens.int(channelText) else { throw SDPValueError("channel count is not a number") }
            rateText = rate
            channels = ch
        } else {
            rateText = rateAndChannels
            channels = nil
        }
        guard let rate = Tokens.int(rateText) else { throw SDPValueError("clock rate is not a number") }
        return (pt, name, rate, channels)
    }

    public var attributeValue: String {
        let base = "\(payloadType) \(encodingName)/\(clockRate)"
        return channels.map { "\(base)/\($0)" } ?? base
    }
}

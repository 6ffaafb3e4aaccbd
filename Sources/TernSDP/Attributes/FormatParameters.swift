/// `a=fmtp:<format> <parameters>` (RFC 8866 §6.15). Parameters are kept as text; `parameters` splits the
/// common `key=value;key=value` form (RFC 7587 for Opus, RFC 4588 for RTX `apt=`).
public struct FormatParameters: SDPAttributeValue, SDPBytesParsable {
    public static let attributeName = "fmtp"
    /// The payload type the parameters apply to.
    public var payloadType: UInt8
    /// The parameter text as written, e.g. `minptime=10;useinbandfec=1`.
    public var text: String

    /// Creates an fmtp attribute.
    public init(payloadType: UInt8, text: String) {
        self.payloadType = payloadType
        self.text = text
    }

    /// Creates an fmtp attribute from ordered key/value pairs.
    public init(payloadType: UInt8, parameters: [(String, String)]) {
        self.payloadType = payloadType
        self.text = parameters.map { $0.1.isEmpty ? $0.0 : "\($0.0)=\($0.1)" }.joined(separator: ";")
    }

    public init(attributeValue: Substring) throws(SDPValueError) {
        self = try Tokens.withBytes(attributeValue) { bytes throws(SDPValueError) in try Self(bytes: bytes) }
    }

    init(bytes: SDPBytes) throws(SDPValueError) {
        let (pt, rest) = try Self.scan(bytes)
        payloadType = pt
        text = Tokens.string(rest)
    }

    static func validate(bytes: SDPBytes) throws(SDPValueError) { _ = try scan(bytes) }

    private static func scan(_ bytes: SDPBytes) throws(SDPValueError) -> (UInt8, SDPBytes) {
        let trimmed = Tokens.trimmed(bytes)
        let format: SDPBytes
        let rest: SDPBytes
        if let (f, r) = Tokens.splitOnce(trimmed, at: UInt8(ascii: " ")) {
            format = f
            rest = r
        } else {
            format = trimmed
            rest = trimmed[trimmed.endIndex...]
        }
        guard let pt = Tokens.number(format, as: UInt8.self), pt <= 127 else {
            throw SDPValueError("payload type is not a number")
        }
        return (pt, rest)
    }

    public var attributeValue: String { text.isEmpty ? "\(payloadType)" : "\(payloadType) \(text)" }

    /// The `key=value` pairs separated by `;` (keys lowercased, spaces trimmed); a bare token maps to "".
    public var parameters: [String: String] {
        var out: [String: String] = [:]
        Tokens.withBytes(text) { bytes in
            for piece in Tokens.split(bytes, on: UInt8(ascii: ";")) {
                let item = Tokens.trimmed(piece)
                guard !item.isEmpty else { continue }
                if let (key, value) = Tokens.splitOnce(item, at: UInt8(ascii: "=")) {
                    out[Tokens.string(Tokens.trimmed(key)).lowercased()] = Tokens.string(Tokens.trimmed(value))
                } else {
                    out[Tokens.string(item).lowercased()] = ""
                }
            }
        }
        return out
    }
}

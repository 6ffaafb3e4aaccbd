/// The `b=` line (RFC 8866 §5.8): `b=<bwtype>:<bandwidth>`, e.g. `b=AS:300` or `b=TIAS:256000`.
public struct Bandwidth: Sendable, Equatable {
    /// Bandwidth type (`AS`, `CT`, `TIAS`, ...).
    public var type: String
    /// The value (kbit/s for AS/CT, bit/s for TIAS).
    public var value: UInt64

    /// Creates a bandwidth line.
    public init(type: String, value: UInt64) {
        self.type = type
        self.value = value
    }

    init(parsing text: SDPBytes) throws(SDPValueError) {
        guard let (kind, amount) = Tokens.splitOnce(text, at: UInt8(ascii: ":")), !kind.isEmpty else {
            throw SDPValueError("expected `<bwtype>:<bandwidth>`")
        }
        guard let number = Tokens.number(amount, as: UInt64.self) else {
            throw SDPValueError("bandwidth is not a number")
        }
        type = Tokens.string(kind)
        value = number
    }

    var text: String { SDPWriter.render(self) }
}

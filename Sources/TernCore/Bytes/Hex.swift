/// Hex formatting and parsing of byte strings (fingerprints, keys, traces).
public enum Hex {
    private static let digits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Lowercase hex, optionally with a separator between bytes (`"ab:cd"`).
    public static func encode(_ bytes: some Sequence<UInt8>, separator: String = "", uppercase: Bool = false) -> String {
        var out = ""
        var first = true
        for byte in bytes {
            if !first { out += separator }
            first = false
            let high = Character(Unicode.Scalar(digits[Int(byte >> 4)]))
            let low = Character(Unicode.Scalar(digits[Int(byte & 0x0f)]))
            out.append(uppercase ? Character(high.uppercased()) : high)
            out.append(uppercase ? Character(low.uppercased()) : low)
        }
        return out
    }

    /// Parses hex digits, ignoring `:` separators; nil if anything else is present or a digit is odd.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count / 2)
        var high: UInt8?
        for char in text.utf8 where char != UInt8(ascii: ":") {
            guard let nibble = nibble(char) else { return nil }
            if let h = high {
                out.append(h << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return high == nil ? out : nil
    }

    /// The value of one ASCII hex digit (either case), or nil.
    public static func nibble(_ char: UInt8) -> UInt8? {
        switch char {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): char - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): char - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): char - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

import TernCore

/// Registration tokens: lowercase hex HMAC-SHA256(key: server secret, message: user id).
///
/// The application's backend, which knows the secret, mints a token for a user it has
/// authenticated; the signaling server checks it without any user database.
public enum SignalingToken {
    /// The token for `user` under `secret` (64 lowercase hex digits).
    public static func make(user: String, secret: String) -> String {
        let mac = HMACSHA256.authenticate(Array(user.utf8), key: Array(secret.utf8))
        let hexDigits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for byte in mac {
            out.append(hexDigits[Int(byte >> 4)])
            out.append(hexDigits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether `token` is the token of `user` under `secret`; compares in constant time.
    public static func isValid(_ token: String, user: String, secret: String) -> Bool {
        guard let code = decodeLowercaseHex(token), code.count == HMACSHA256.byteCount else { return false }
        return HMACSHA256.equal(HMACSHA256.authenticate(Array(user.utf8), key: Array(secret.utf8)), code)
    }

    private static func decodeLowercaseHex(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        func value(_ d: UInt8) -> UInt8? {
            switch d {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d - UInt8(ascii: "a") + 10
            default: nil
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }
}

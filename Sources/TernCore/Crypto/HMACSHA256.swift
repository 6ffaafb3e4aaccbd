internal import Crypto

/// HMAC-SHA256 (RFC 2104, test vectors in RFC 4231) from swift-crypto, for the MACs Tern makes
/// itself: SCTP state cookies (RFC 9260 §5.1.3), ICE round-trip probes and signaling
/// registration tokens.
public enum HMACSHA256 {
    /// Bytes in a MAC.
    public static let byteCount = 32

    /// The MAC of `message` under `key`.
    public static func authenticate(_ message: some Sequence<UInt8>, key: [UInt8]) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: Array(message), using: SymmetricKey(data: key)))
    }

    /// Compares two MACs without an early exit. Inlinable, so that it is specialised for the
    /// caller's collections (unspecialised, every byte went through zip's generic iterator).
    @inlinable
    public static func equal(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        var diff: UInt8 = 0
        for (x, y) in zip(a, b) { diff |= x ^ y }
        return diff == 0
    }
}

/// HMAC-SHA256 (RFC 2104, test vectors in RFC 4231).
public enum HMACSHA256 {
    /// The MAC of `message` under `key`.
    public static func authenticate(_ message: some Sequence<UInt8>, key: [UInt8]) -> [UInt8] {
        var k = key.count > 64 ? SHA256.hash(key) : key
        k.append(contentsOf: repeatElement(0, count: 64 - k.count))
        var inner = SHA256()
        inner.update(k.map { $0 ^ 0x36 })
        inner.update(message)
        let innerHash = inner.finalize()
        var outer = SHA256()
        outer.update(k.map { $0 ^ 0x5c })
        outer.update(innerHash)
        return outer.finalize()
    }

    /// Compares two MACs without an early exit.
    public static func equal(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        var diff: UInt8 = 0
        for (x, y) in zip(a, b) { diff |= x ^ y }
        return diff == 0
    }
}

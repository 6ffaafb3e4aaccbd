internal import COpenSSL

/// Reads and clears OpenSSL's thread-local error queue.
enum OpenSSLErrorQueue {
    /// The queued errors as one line (`"reason; reason"`), or `fallback` when the queue is empty.
    static func drain(fallback: String = "no OpenSSL error queued") -> String {
        var reasons: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            reasons.append(String(decoding: bytes, as: UTF8.self))
        }
        return reasons.isEmpty ? fallback : reasons.joined(separator: "; ")
    }

    /// Discards whatever an earlier call left behind, so the next error read belongs to the next call.
    static func clear() { ERR_clear_error() }
}

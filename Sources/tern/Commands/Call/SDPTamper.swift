import Foundation
import TernSignaling

/// A man in the middle on the signaling path, for `tern call --break`: it alters the offer's
/// DTLS fingerprint or ICE password in transit, exactly as an attacker or a buggy relay would,
/// so the failure that follows is the stack's real reaction.
struct SDPTamper: Sendable {
    let step: LoopbackCall.BreakStep

    /// The frame with the offer altered; other frames unchanged.
    func apply(to frame: String) -> String {
        guard frame.contains("\"type\":\"description\""), frame.contains("offer") else { return frame }
        switch step {
        case .fingerprint:
            // Flip the first byte of every SHA-256 fingerprint: a certificate no one holds.
            return replace(in: frame, pattern: "a=fingerprint:sha-256 ([0-9A-F]{2})") { byte in
                let value = UInt8(byte, radix: 16) ?? 0
                return String(format: "a=fingerprint:sha-256 %02X", value ^ 0xFF)
            }
        case .ice:
            return replace(in: frame, pattern: "a=ice-pwd:([A-Za-z0-9+/]+)") { password in
                "a=ice-pwd:" + String(password.reversed().map { $0 == "A" ? "B" : "A" })
            }
        }
    }

    private func replace(in text: String, pattern: String, with transform: (String) -> String) -> String {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return text }
        var result = text
        let matches = regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).reversed()
        for match in matches {
            guard let whole = Range(match.range, in: text), let group = Range(match.range(at: 1), in: text) else { continue }
            result.replaceSubrange(whole, with: transform(String(text[group])))
        }
        return result
    }
}

/// A signaling transport that passes every outgoing frame through an `SDPTamper`.
final class TamperingSignalingTransport: SignalingTransport {
    private let inner: any SignalingTransport
    private let tamper: SDPTamper

    init(wrapping inner: any SignalingTransport, tamper: SDPTamper) {
        self.inner = inner
        self.tamper = tamper
    }

    var incoming: AsyncStream<String> { inner.incoming }

    func send(_ text: String) async throws(SignalingTransportError) {
        try await inner.send(tamper.apply(to: text))
    }

    func close() async { await inner.close() }
}

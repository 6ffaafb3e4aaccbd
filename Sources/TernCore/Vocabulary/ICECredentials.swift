/// ICE username fragment and password (RFC 8445 §5.3; SDP form in RFC 8839 §5.4: ufrag of at
/// least 4 and pwd of at least 22 ice-chars). Shared by TernSDP (`a=ice-ufrag`/`a=ice-pwd`),
/// TernICE (the agent's credentials) and the peer connection.
public struct ICECredentials: Hashable, Sendable, Codable, CustomStringConvertible {
    /// `ice-ufrag`.
    public var ufrag: String
    /// `ice-pwd`.
    public var pwd: String

    public init(ufrag: String, pwd: String) {
        self.ufrag = ufrag
        self.pwd = pwd
    }

    private static let iceChars: [Character] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")

    /// Fresh random credentials (16-char ufrag, 32-char pwd) drawn from `random`.
    public static func random(using random: inout some RandomNumberGenerator) -> ICECredentials {
        func draw(_ count: Int) -> String {
            String((0..<count).map { _ in iceChars[Int(random.next() % UInt64(iceChars.count))] })
        }
        return ICECredentials(ufrag: draw(16), pwd: draw(32))
    }

    /// Fresh credentials from the system's random number generator.
    public static func random() -> ICECredentials {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }

    /// The password is redacted: traces and logs must not leak it.
    public var description: String { "ufrag=\(ufrag) pwd=<\(pwd.count) chars>" }
}

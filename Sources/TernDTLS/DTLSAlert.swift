/// A TLS alert seen on the association (RFC 5246 §7.2), with OpenSSL's long names.
public struct DTLSAlert: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Whether the peer sent it or this endpoint did.
    public enum Direction: String, Sendable { case received, sent }

    /// The alert description code (e.g. 0 close_notify, 42 bad_certificate).
    public var code: UInt8
    /// OpenSSL's long description (`SSL_alert_desc_string_long`), e.g. "close notify".
    public var name: String
    /// True for a fatal alert (level 2).
    public var isFatal: Bool
    /// Who sent it.
    public var direction: Direction

    /// An alert as OpenSSL reported it.
    public init(code: UInt8, name: String, isFatal: Bool, direction: Direction) {
        self.code = code
        self.name = name
        self.isFatal = isFatal
        self.direction = direction
    }

    /// close_notify (RFC 5246 §7.2.1).
    public var isCloseNotify: Bool { code == 0 }

    public var description: String { "\(isFatal ? "fatal" : "warning") \(name) (\(code), \(direction.rawValue))" }
}

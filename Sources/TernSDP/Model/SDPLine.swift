/// One line other than `v=`, `o=`, `s=` and `m=`, at session or media level, in the order it appeared.
///
/// RFC 8866 §5 defines the types; lines with a type letter it does not define are kept as `.unknown`.
public enum SDPLine: Sendable, Equatable {
    /// `i=` session or media title.
    case information(String)
    /// `u=` URI.
    case uri(String)
    /// `e=` email address.
    case email(String)
    /// `p=` phone number.
    case phone(String)
    /// `c=` connection data.
    case connection(ConnectionData)
    /// `b=` bandwidth.
    case bandwidth(Bandwidth)
    /// `t=` timing.
    case timing(Timing)
    /// `r=` repeat times (kept as text).
    case repeatTimes(String)
    /// `z=` time zones (kept as text).
    case timeZones(String)
    /// `k=` encryption key (obsolete; kept as text).
    case encryptionKey(String)
    /// `a=` attribute.
    case attribute(Attribute)
    /// Any other `<type>=<value>` line, kept verbatim.
    case unknown(type: Character, value: String)

    /// The line as written, without CRLF.
    public var text: String { SDPWriter.render(self) }

    /// The attribute, if this is an `a=` line.
    public var attribute: Attribute? {
        if case .attribute(let a) = self { return a }
        return nil
    }
}

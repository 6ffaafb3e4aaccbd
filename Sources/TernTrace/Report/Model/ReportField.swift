/// One labelled value in an ordered key/value list (summary box, DTLS facts).
public struct ReportField: Codable, Sendable, Equatable {
    /// The label, e.g. "SRTP profile".
    public var key: String
    /// The value, e.g. "SRTP_AEAD_AES_128_GCM".
    public var value: String

    /// A row from its label and value.
    public init(_ key: String, _ value: String) {
        self.key = key
        self.value = value
    }
}

/// Why an `SRTPSession` could not be created.
public enum SRTPError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The master key or salt does not have the profile's length (RFC 5764 §4.1.2, RFC 7714 §12).
    case invalidKeyLength(profile: SRTPProtectionProfile, keyLength: Int, saltLength: Int)
    /// libsrtp returned an error status (`srtp_err_status_t`).
    case library(operation: String, status: Int32)

    public var description: String {
        switch self {
        case let .invalidKeyLength(profile, key, salt):
            "\(profile) needs a \(profile.keyLength)-byte key and a \(profile.saltLength)-byte salt, got \(key) and \(salt)"
        case let .library(operation, status):
            "\(operation) failed with libsrtp status \(status)"
        }
    }
}

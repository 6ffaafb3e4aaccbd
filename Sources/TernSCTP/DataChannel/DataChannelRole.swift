/// Which DTLS role this endpoint has; it decides stream id parity (RFC 8832 §6: the DTLS
/// client uses even ids, the server odd ids).
public enum DataChannelRole: Sendable {
    case client, server
}

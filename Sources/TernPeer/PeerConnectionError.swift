public import TernDTLS
public import TernICE
public import TernSCTP
public import TernSDP

/// Why a `PeerConnection` call failed. `name` gives the W3C error category
/// (`InvalidStateError`, `InvalidAccessError`, `OperationError`, ...).
public enum PeerConnectionError: Error, Sendable, CustomStringConvertible {
    /// The call is not allowed in the current state (closed connection, channel not open...).
    case invalidState(String)
    /// An offer/answer step was refused by JSEP (RFC 9429); carries its W3C-named error.
    case negotiation(JSEPError)
    /// The ICE transport refused the operation.
    case ice(ICEError)
    /// The DTLS transport could not be set up.
    case dtls(DTLSError)
    /// A data channel operation failed.
    case dataChannel(DataChannelError)
    /// A media encoder or decoder failed.
    case media(String)

    /// The W3C `DOMException` name for this error.
    public var name: String {
        switch self {
        case .invalidState: "InvalidStateError"
        case let .negotiation(error): error.name.rawValue
        case .ice, .dtls, .media: "OperationError"
        case let .dataChannel(error):
            switch error {
            case .messageTooLarge: "TypeError"
            case .invalidState: "InvalidStateError"
            default: "OperationError"
            }
        }
    }

    public var description: String {
        switch self {
        case let .invalidState(why): "\(name): \(why)"
        case let .negotiation(error): "\(error)"
        case let .ice(error): "\(name): ICE: \(error)"
        case let .dtls(error): "\(name): DTLS: \(error)"
        case let .dataChannel(error): "\(name): data channel: \(error)"
        case let .media(why): "\(name): media: \(why)"
        }
    }
}

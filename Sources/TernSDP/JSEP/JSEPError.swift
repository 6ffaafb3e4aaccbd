/// A negotiation failure named after the W3C/WebIDL exception the browser API would throw.
public struct JSEPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// W3C error names (WebIDL `DOMException` names and `RTCError`'s `OperationError`).
    public enum Name: String, Sendable, Equatable {
        /// The call is not allowed in the current signaling state.
        case invalidState = "InvalidStateError"
        /// The description is inconsistent with the session (e.g. m= lines reordered, missing ICE/DTLS data).
        case invalidAccess = "InvalidAccessError"
        /// The description was modified between create and set.
        case invalidModification = "InvalidModificationError"
        /// The operation failed, e.g. the SDP does not parse or a candidate matches no section.
        case operation = "OperationError"
        /// An argument is out of range (e.g. no such transceiver).
        case range = "RangeError"
    }

    /// Which W3C error this is.
    public let name: Name
    /// What went wrong.
    public let message: String

    /// Creates an error.
    public init(_ name: Name, _ message: String) {
        self.name = name
        self.message = message
    }

    public var description: String { "\(name.rawValue): \(message)" }
}

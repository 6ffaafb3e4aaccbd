/// What an `SCTPAssociation` reports through `pollEvent()`.
public enum SCTPAssociationEvent: Sendable, Equatable {
    /// The association reached ESTABLISHED (RFC 9260 §5.1).
    case connected
    /// A complete user message arrived.
    case message(SCTPMessage)
    /// The peer reset its outgoing side of these streams; our incoming SSNs restarted at 0 (RFC 6525 §5.2.2).
    case incomingStreamsReset([UInt16])
    /// The peer confirmed our outgoing reset of these streams (RFC 6525 §5.1.2).
    case outgoingStreamsReset([UInt16])
    /// The bytes queued but not yet sent on a stream fell to or below its low threshold.
    case bufferedAmountLow(streamIdentifier: UInt16)
    /// The peer restarted the association (RFC 9260 §5.2.4 action A): stream state was reset.
    case restarted
    /// The peer sent an ERROR chunk (RFC 9260 §3.3.10).
    case peerError([SCTPErrorCause])
    /// The association is closed; nothing more will be sent or received.
    case closed(SCTPCloseReason)
}

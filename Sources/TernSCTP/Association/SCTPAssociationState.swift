/// The RFC 9260 §4 association states.
public enum SCTPAssociationState: String, Sendable {
    case closed, cookieWait = "cookie-wait", cookieEchoed = "cookie-echoed", established
    case shutdownPending = "shutdown-pending", shutdownSent = "shutdown-sent"
    case shutdownReceived = "shutdown-received", shutdownAckSent = "shutdown-ack-sent"
}

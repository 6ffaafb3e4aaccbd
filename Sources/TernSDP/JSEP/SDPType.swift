/// The type of a description in the offer/answer exchange (RFC 9429 §4.1.8; W3C `RTCSdpType`).
public enum SDPType: String, Sendable, CaseIterable, Codable {
    /// An offer.
    case offer
    /// A provisional answer.
    case pranswer
    /// A final answer.
    case answer
    /// Cancels the current offer (RFC 9429 §4.1.8.2).
    case rollback
}

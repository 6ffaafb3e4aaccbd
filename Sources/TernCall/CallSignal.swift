/// The call messages of signaling protocol v1 (Docs/SIGNALING.md) that the call core
/// sends and consumes. Session descriptions and ICE candidates are not here: the I/O
/// driver relays them between the peer connection and the signaling client.
///
/// The driver bridges these values to and from the wire types of `TernSignaling`.
public enum CallSignal: Hashable, Sendable, CustomStringConvertible {
    /// `{"type":"invite",…}`: start a call (sent by the caller, delivered to every device of the callee).
    case invite(CallInvite)
    /// `{"type":"ringing"}`: a callee device rings (the caller gets the first one).
    case ringing(callId: String)
    /// `{"type":"accept"}`: a callee device answered.
    case accept(callId: String)
    /// `{"type":"reject","reason":…}`: a callee device (or the server) refused the call.
    case reject(callId: String, reason: CallRejectReason)
    /// `{"type":"cancel"}`: the caller gave up before an answer.
    case cancel(callId: String)
    /// `{"type":"hangup"}`: either party ends an answered call.
    case hangup(callId: String)
    /// `{"type":"timeout"}` (server-sent): nobody answered within the ring time.
    case timeout(callId: String)
    /// `{"type":"answeredElsewhere"}` (server-sent): another device of the callee answered.
    case answeredElsewhere(callId: String)
    /// `{"type":"rejectedElsewhere"}` (server-sent): another device of the callee rejected
    /// the call and the call is over for every device (`rejectPolicy` `"any"`).
    case rejectedElsewhere(callId: String)

    /// The call the message is about.
    public var callId: String {
        switch self {
        case .invite(let invite): invite.callId
        case .ringing(let id), .accept(let id), .reject(let id, _), .cancel(let id), .hangup(let id),
             .timeout(let id), .answeredElsewhere(let id), .rejectedElsewhere(let id): id
        }
    }

    /// The wire `type` string.
    public var type: String {
        switch self {
        case .invite: "invite"
        case .ringing: "ringing"
        case .accept: "accept"
        case .reject: "reject"
        case .cancel: "cancel"
        case .hangup: "hangup"
        case .timeout: "timeout"
        case .answeredElsewhere: "answeredElsewhere"
        case .rejectedElsewhere: "rejectedElsewhere"
        }
    }

    public var description: String {
        switch self {
        case .invite(let invite): invite.description
        case .reject(let id, let reason): "reject \(id) \(reason)"
        default: "\(type) \(callId)"
        }
    }
}

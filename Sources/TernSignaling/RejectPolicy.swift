/// How rejects from several devices of the callee end a call (chosen per invite).
public enum RejectPolicy: String, Codable, Hashable, Sendable {
    /// The call fails only when every ringing device has rejected it (the default, like
    /// SIP forking: a device busy in another call does not stop the others ringing).
    case all
    /// The first reject ends the call on every device.
    case any
}

public import TernSignaling

/// Where every member of a group call stands, whenever one changes (`CallAgent.callMemberStates`).
public struct CallMemberUpdate: Hashable, Sendable, CustomStringConvertible {
    /// The group call.
    public var callId: String
    /// The application's transaction code for the call.
    public var txCode: String
    /// Every member, the caller first, as the server reported them.
    public var members: [CallMember]

    public init(callId: String, txCode: String, members: [CallMember]) {
        self.callId = callId
        self.txCode = txCode
        self.members = members
    }

    public var description: String { "\(callId) " + members.map(\.description).joined(separator: ", ") }
}

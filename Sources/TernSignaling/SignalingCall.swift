import TernCore

/// The router's record of one one-to-one or first-answer call, from invite to its end.
struct SignalingCall: Codable, Sendable {
    let id: String
    /// The caller's connection (a `resume` moves it to the caller's new connection).
    var caller: SignalingConnectionID
    let callerUser: String
    /// The invitees: one, or several for a first-answer call (every device of each rings).
    let calleeUsers: [String]
    /// Every device the invite was delivered to (more join when they register while push is on).
    var devices: [SignalingConnectionID]
    /// Devices that rejected (or went away) while ringing, with their reason.
    var rejections: [SignalingConnectionID: RejectReason] = [:]
    /// Whether the caller has been told `ringing` already (only the first is forwarded).
    var ringingForwarded = false
    /// The device that accepted (a `resume` moves it to the answerer's new connection); `nil` while ringing.
    var answeredBy: SignalingConnectionID?
    /// The user of `answeredBy`.
    var answererUser: String?
    /// The invite as delivered, for devices that register while it rings (push on).
    var invitation: SignalingMessage?
    /// When an unanswered call times out.
    let deadline: Instant
    let rejectPolicy: RejectPolicy

    /// Devices that still ring: not rejected, and the call not answered.
    var ringingDevices: [SignalingConnectionID] {
        answeredBy == nil ? devices.filter { rejections[$0] == nil } : []
    }

    /// What `connection` is to this call.
    func role(of connection: SignalingConnectionID) -> Role {
        if connection == caller { return .caller }
        if let answeredBy { return connection == answeredBy ? .answerer : .outsider }
        if devices.contains(connection), rejections[connection] == nil { return .ringingDevice }
        return .outsider
    }

    /// Moves the caller or answerer `old` to `new` (a `resume`); false if `old` is neither.
    mutating func reattach(_ old: SignalingConnectionID, to new: SignalingConnectionID) -> Bool {
        if caller == old {
            caller = new
        } else if answeredBy == old {
            answeredBy = new
        } else {
            return false
        }
        return true
    }

    /// The other party of an answered call.
    func peer(of connection: SignalingConnectionID) -> SignalingConnectionID? {
        guard let answeredBy else { return nil }
        if connection == caller { return answeredBy }
        if connection == answeredBy { return caller }
        return nil
    }

    /// The reason the caller gets when every device is gone (`RejectReason.combined`).
    var combinedRejectReason: RejectReason { .combined(rejections.values) }

    enum Role {
        case caller, answerer, ringingDevice, outsider
    }
}

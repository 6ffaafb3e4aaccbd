import TernCore

/// The router's record of one group call (an `invite` with `mode` `group`), from invite to its
/// end: each member's answer tracked on its own (Docs/SIGNALING.md "Group calls").
struct SignalingGroupCall: Codable, Sendable {
    /// One listed member: the caller, or an invitee whatever became of the invitation.
    struct Member: Codable, Sendable {
        let user: String
        var state: CallMember.State
        var reason: RejectReason?
        /// Who invited this member (`nil` for the caller).
        var invitedBy: String?
        /// Devices the invitation was delivered to, ascending (more join when they register while
        /// push is on).
        var devices: [SignalingConnectionID] = []
        /// Devices that rejected (or went away) while ringing, with their reason.
        var rejections: [SignalingConnectionID: RejectReason] = [:]
        /// The device in the call, once accepted (the caller's connection from the start).
        var connection: SignalingConnectionID?
        /// When a pending invitation times out.
        var deadline: Instant?
        /// The ring time the invitation was given, for devices that register later.
        var ringMs = 0
        /// The invitee's own data, from its `accept` or `reject`.
        var attachedData: [AttachedData] = []

        /// Devices that still ring: not rejected, and the invitation still pending.
        var ringingDevices: [SignalingConnectionID] {
            state.isPending ? devices.filter { rejections[$0] == nil } : []
        }

        /// The reason when every device is gone (`RejectReason.combined`).
        var combinedRejectReason: RejectReason { .combined(rejections.values) }

        var wire: CallMember {
            CallMember(user: user, state: state, reason: reason, invitedBy: invitedBy, attachedData: attachedData)
        }
    }

    let id: String
    let callerUser: String
    let media: MediaOptions
    let attachedData: [AttachedData]
    let rejectPolicy: RejectPolicy
    let invitePolicy: InvitePolicy
    /// In the order they were first listed, the caller first.
    var members: [Member]

    /// What a connection is to this call.
    enum Role: Equatable {
        /// The accepted member at `index`.
        case member(Int)
        /// A device still ringing for the pending member at `index`.
        case ringingDevice(Int)
        case outsider
    }

    func role(of connection: SignalingConnectionID) -> Role {
        if let index = members.firstIndex(where: { $0.state == .accepted && $0.connection == connection }) {
            return .member(index)
        }
        if let index = members.firstIndex(where: { $0.ringingDevices.contains(connection) }) {
            return .ringingDevice(index)
        }
        return .outsider
    }

    func index(of user: String) -> Int? { members.firstIndex { $0.user.isExactly(user) } }

    /// Connections of the accepted members, in member order.
    var memberConnections: [SignalingConnectionID] {
        members.compactMap { $0.state == .accepted ? $0.connection : nil }
    }

    var acceptedCount: Int { members.lazy.filter { $0.state == .accepted }.count }
    var pendingCount: Int { members.lazy.filter { $0.state.isPending }.count }

    /// The call goes on while someone is in it and somebody else is in it or still invited.
    var isOver: Bool { acceptedCount == 0 || (acceptedCount == 1 && pendingCount == 0) }

    /// The earliest pending invitation's deadline.
    var nextDeadline: Instant? { members.lazy.compactMap { $0.state.isPending ? $0.deadline : nil }.min() }

    var wire: [CallMember] { members.map(\.wire) }
}

extension SignalingMessage: Codable {
    enum CodingKeys: String, CodingKey {
        case type, user, token, callId, from, to, media, attachedData, timeoutMs, rejectPolicy
        case reason, description, candidate, queue, requestId, position, customer, agent
        case code, message, callIds, calls, mode, invitePolicy, members, state
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let type = try c.decode(String.self, forKey: .type)
        func string(_ key: CodingKeys) throws -> String { try c.decode(String.self, forKey: key) }
        func optional(_ key: CodingKeys) throws -> String? { try c.decodeIfPresent(String.self, forKey: key) }
        func attached() throws -> [AttachedData] { try c.decodeIfPresent([AttachedData].self, forKey: .attachedData) ?? [] }
        switch type {
        case "register":
            self = .register(user: try string(.user), token: try c.decodeIfPresent(String.self, forKey: .token) ?? "")
        case "registered": self = .registered(user: try string(.user))
        case "invite":
            let invitees = try Invitees(c)
            self = .invite(Invite(
                callId: try string(.callId),
                from: try c.decodeIfPresent(String.self, forKey: .from),
                to: invitees.list,
                mode: try c.decodeIfPresent(InviteMode.self, forKey: .mode) ?? (invitees.isList ? .group : .oneToOne),
                media: try c.decodeIfPresent(MediaOptions.self, forKey: .media) ?? MediaOptions(),
                attachedData: try attached(),
                timeoutMs: try c.decodeIfPresent(Int.self, forKey: .timeoutMs),
                rejectPolicy: try c.decodeIfPresent(RejectPolicy.self, forKey: .rejectPolicy),
                invitePolicy: try c.decodeIfPresent(InvitePolicy.self, forKey: .invitePolicy)))
        case "ringing": self = .ringing(callId: try string(.callId))
        case "accept": self = .accept(callId: try string(.callId), attachedData: try attached())
        case "reject":
            self = .reject(callId: try string(.callId),
                           reason: try c.decodeIfPresent(RejectReason.self, forKey: .reason) ?? .declined,
                           attachedData: try attached())
        case "cancel":
            if let to = try c.decodeIfPresent([String].self, forKey: .to) {
                self = .cancelInvitees(callId: try string(.callId), to: to)
            } else {
                self = .cancel(callId: try string(.callId))
            }
        case "hangup": self = .hangup(callId: try string(.callId))
        case "timeout": self = .timeout(callId: try string(.callId))
        case "answeredElsewhere": self = .answeredElsewhere(callId: try string(.callId))
        case "rejectedElsewhere": self = .rejectedElsewhere(callId: try string(.callId))
        case "description":
            self = .description(callId: try string(.callId),
                                description: try c.decode(SignalingSessionDescription.self, forKey: .description),
                                from: try optional(.from), to: try optional(.to))
        case "candidate":
            // The key is required; its value may be null (end of candidates).
            guard c.contains(.candidate) else {
                throw DecodingError.keyNotFound(CodingKeys.candidate, .init(
                    codingPath: c.codingPath, debugDescription: "candidate is required (null = end of candidates)"))
            }
            self = .candidate(callId: try string(.callId),
                              candidate: try c.decodeIfPresent(SignalingICECandidate.self, forKey: .candidate),
                              from: try optional(.from), to: try optional(.to))
        case "members": self = .members(callId: try string(.callId), members: try c.decode([CallMember].self, forKey: .members))
        case "inviteMore":
            self = .inviteMore(callId: try string(.callId), to: try c.decode([String].self, forKey: .to),
                               timeoutMs: try c.decodeIfPresent(Int.self, forKey: .timeoutMs))
        case "quit": self = .quit(callId: try string(.callId))
        case "ended": self = .ended(callId: try string(.callId), reason: try c.decode(GroupEndReason.self, forKey: .reason))
        case "callStatus":
            self = .callStatus(callId: try string(.callId), state: try c.decodeIfPresent(CallStatusState.self, forKey: .state))
        case "resume": self = .resume(callIds: try c.decode([String].self, forKey: .callIds))
        case "resumed": self = .resumed(calls: try c.decode([ResumedCall].self, forKey: .calls))
        case "enqueue":
            self = .enqueue(queue: try string(.queue), requestId: try string(.requestId), attachedData: try attached())
        case "dequeue": self = .dequeue(queue: try string(.queue), requestId: try string(.requestId))
        case "dequeued": self = .dequeued(queue: try string(.queue), requestId: try string(.requestId))
        case "queuePosition":
            self = .queuePosition(queue: try string(.queue), requestId: try string(.requestId),
                                  position: try c.decode(Int.self, forKey: .position))
        case "pick": self = .pick(queue: try string(.queue))
        case "picked":
            self = .picked(queue: try string(.queue), requestId: try string(.requestId),
                           customer: try string(.customer), attachedData: try attached())
        case "assigned":
            self = .assigned(queue: try string(.queue), requestId: try string(.requestId), agent: try string(.agent))
        case "error":
            self = .error(SignalingError(
                code: try c.decode(SignalingErrorCode.self, forKey: .code),
                message: try c.decodeIfPresent(String.self, forKey: .message) ?? "",
                callId: try c.decodeIfPresent(String.self, forKey: .callId),
                requestId: try c.decodeIfPresent(String.self, forKey: .requestId)))
        default:
            throw SignalingMessageTypeError(type: type)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(type, forKey: .type)
        switch self {
        case .register(let user, let token):
            try c.encode(user, forKey: .user)
            try c.encode(token, forKey: .token)
        case .registered(let user):
            try c.encode(user, forKey: .user)
        case .invite(let invite):
            try c.encode(invite.callId, forKey: .callId)
            try c.encodeIfPresent(invite.from, forKey: .from)
            // One-to-one invites keep the string form every client of protocol v1 reads.
            if invite.mode == .oneToOne, invite.to.count == 1 {
                try c.encode(invite.callee, forKey: .to)
            } else {
                try c.encode(invite.to, forKey: .to)
                try c.encode(invite.mode, forKey: .mode)
            }
            try c.encode(invite.media, forKey: .media)
            try c.encode(invite.attachedData, forKey: .attachedData)
            try c.encodeIfPresent(invite.timeoutMs, forKey: .timeoutMs)
            try c.encodeIfPresent(invite.rejectPolicy, forKey: .rejectPolicy)
            try c.encodeIfPresent(invite.invitePolicy, forKey: .invitePolicy)
        case .accept(let id, let attachedData):
            try c.encode(id, forKey: .callId)
            // Only when there is some: a one-to-one accept keeps the frame protocol v1 always had.
            if !attachedData.isEmpty { try c.encode(attachedData, forKey: .attachedData) }
        case .ringing(let id), .cancel(let id), .hangup(let id), .timeout(let id),
             .answeredElsewhere(let id), .rejectedElsewhere(let id):
            try c.encode(id, forKey: .callId)
        case .reject(let id, let reason, let attachedData):
            try c.encode(id, forKey: .callId)
            try c.encode(reason, forKey: .reason)
            if !attachedData.isEmpty { try c.encode(attachedData, forKey: .attachedData) }
        case .description(let id, let description, let from, let to):
            try c.encode(id, forKey: .callId)
            try c.encode(description, forKey: .description)
            try c.encodeIfPresent(from, forKey: .from)
            try c.encodeIfPresent(to, forKey: .to)
        case .candidate(let id, let candidate, let from, let to):
            try c.encode(id, forKey: .callId)
            if let candidate { try c.encode(candidate, forKey: .candidate) } else { try c.encodeNil(forKey: .candidate) }
            try c.encodeIfPresent(from, forKey: .from)
            try c.encodeIfPresent(to, forKey: .to)
        case .members(let id, let members):
            try c.encode(id, forKey: .callId)
            try c.encode(members, forKey: .members)
        case .inviteMore(let id, let to, let timeoutMs):
            try c.encode(id, forKey: .callId)
            try c.encode(to, forKey: .to)
            try c.encodeIfPresent(timeoutMs, forKey: .timeoutMs)
        case .cancelInvitees(let id, let to):
            try c.encode(id, forKey: .callId)
            try c.encode(to, forKey: .to)
        case .quit(let id):
            try c.encode(id, forKey: .callId)
        case .ended(let id, let reason):
            try c.encode(id, forKey: .callId)
            try c.encode(reason, forKey: .reason)
        case .callStatus(let id, let state):
            try c.encode(id, forKey: .callId)
            try c.encodeIfPresent(state, forKey: .state)
        case .resume(let callIds):
            try c.encode(callIds, forKey: .callIds)
        case .resumed(let calls):
            try c.encode(calls, forKey: .calls)
        case .enqueue(let queue, let requestId, let attachedData):
            try c.encode(queue, forKey: .queue)
            try c.encode(requestId, forKey: .requestId)
            try c.encode(attachedData, forKey: .attachedData)
        case .dequeue(let queue, let requestId), .dequeued(let queue, let requestId):
            try c.encode(queue, forKey: .queue)
            try c.encode(requestId, forKey: .requestId)
        case .queuePosition(let queue, let requestId, let position):
            try c.encode(queue, forKey: .queue)
            try c.encode(requestId, forKey: .requestId)
            try c.encode(position, forKey: .position)
        case .pick(let queue):
            try c.encode(queue, forKey: .queue)
        case .picked(let queue, let requestId, let customer, let attachedData):
            try c.encode(queue, forKey: .queue)
            try c.encode(requestId, forKey: .requestId)
            try c.encode(customer, forKey: .customer)
            try c.encode(attachedData, forKey: .attachedData)
        case .assigned(let queue, let requestId, let agent):
            try c.encode(queue, forKey: .queue)
            try c.encode(requestId, forKey: .requestId)
            try c.encode(agent, forKey: .agent)
        case .error(let error):
            try c.encode(error.code, forKey: .code)
            try c.encode(error.message, forKey: .message)
            try c.encodeIfPresent(error.callId, forKey: .callId)
            try c.encodeIfPresent(error.requestId, forKey: .requestId)
        }
    }
}

/// An invite's `to`: a string (one-to-one) or a list of user ids.
private struct Invitees {
    var list: [String]
    var isList: Bool

    init(_ c: KeyedDecodingContainer<SignalingMessage.CodingKeys>) throws {
        if let one = try? c.decode(String.self, forKey: .to) {
            list = [one]
            isList = false
        } else {
            list = try c.decode([String].self, forKey: .to)
            isList = true
        }
    }
}

/// Thrown while decoding a frame whose `type` is not part of protocol v1.
struct SignalingMessageTypeError: Error {
    let type: String
}

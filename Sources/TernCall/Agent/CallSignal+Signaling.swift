import TernSignaling

/// The bridge between the call core's signals and signaling protocol v1 messages (Docs/SIGNALING.md).
extension CallSignal {
    /// The protocol v1 message for this signal.
    var signalingMessage: SignalingMessage {
        switch self {
        case let .invite(invite):
            .invite(Invite(callId: invite.callId, from: invite.from.isEmpty ? nil : invite.from, to: invite.to,
                           media: MediaOptions(audio: invite.media.audio, video: invite.media.video, data: invite.media.data),
                           attachedData: invite.attachedData.map { AttachedData(dataName: $0.name, dataValue: $0.value) },
                           timeoutMs: invite.timeoutMs, rejectPolicy: RejectPolicy(rawValue: invite.rejectPolicy.rawValue)))
        case let .ringing(id): .ringing(callId: id)
        case let .accept(id): .accept(callId: id)
        case let .reject(id, reason): .reject(callId: id, reason: RejectReason(reason))
        case let .cancel(id): .cancel(callId: id)
        case let .hangup(id): .hangup(callId: id)
        case let .timeout(id): .timeout(callId: id)
        case let .answeredElsewhere(id): .answeredElsewhere(callId: id)
        case let .rejectedElsewhere(id): .rejectedElsewhere(callId: id)
        }
    }

    /// The call signal a protocol v1 message carries, if it is one.
    init?(_ message: SignalingMessage) {
        switch message {
        case let .invite(invite):
            self = .invite(CallInvite(
                callId: invite.callId, from: invite.from ?? "", to: invite.to,
                media: CallMedia(audio: invite.media.audio, video: invite.media.video, data: invite.media.data),
                attachedData: invite.attachedData.map { CallDataItem(name: $0.dataName, value: $0.dataValue) },
                timeoutMs: invite.timeoutMs ?? 30_000,
                rejectPolicy: invite.rejectPolicy.flatMap { CallRejectPolicy(rawValue: $0.rawValue) } ?? .all))
        case let .ringing(id): self = .ringing(callId: id)
        case let .accept(id): self = .accept(callId: id)
        case let .reject(id, reason): self = .reject(callId: id, reason: CallRejectReason(reason))
        case let .cancel(id): self = .cancel(callId: id)
        case let .hangup(id): self = .hangup(callId: id)
        case let .timeout(id): self = .timeout(callId: id)
        case let .answeredElsewhere(id): self = .answeredElsewhere(callId: id)
        case let .rejectedElsewhere(id): self = .rejectedElsewhere(callId: id)
        default: return nil
        }
    }
}

extension RejectReason {
    init(_ reason: CallRejectReason) {
        switch reason {
        case .declined: self = .declined
        case .busy: self = .busy
        case .unavailable: self = .unavailable
        }
    }
}

extension CallRejectReason {
    init(_ reason: RejectReason) {
        switch reason {
        case .declined: self = .declined
        case .busy: self = .busy
        case .unavailable: self = .unavailable
        }
    }
}

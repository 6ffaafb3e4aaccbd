import TernCall
import TernSignaling
import TernCore

extension CallRelay {
    /// alice and bob, one device each.
    static func pair(configuration: CallConfiguration = CallConfiguration()) -> CallRelay {
        CallRelay(devices: ["alice": "alice", "bob": "bob"], configuration: configuration)
    }

    /// `from` calls `to` (user) with call id `callId`.
    func call(_ from: String, to: String, callId: String = "c1", media: MediaOptions = .audioVideo,
              attachedData: [AttachedData] = [], timeout: Duration = .seconds(30), txCode: String = "TX-1") throws {
        try on(from) {
            try $0.call(callId: callId, to: to, media: media, attachedData: attachedData, timeout: timeout,
                        txCode: txCode, now: now)
        }
    }

    /// alice calls bob, bob accepts, both transports connect: both `IN_PROGRESS`.
    func establish(media: MediaOptions = .audioVideo) throws {
        try call("alice", to: "bob", media: media)
        try on("bob") { try $0.accept(media: media, now: now) }
        connect("alice", "bob")
    }

    /// The actions a device's core asked its driver for, in order.
    func actions(_ device: String) -> [CallAction] {
        (outputs[device] ?? []).compactMap { if case .action(let action) = $0 { action } else { nil } }
    }

    /// The signals a device's core sent, in order.
    func sent(_ device: String) -> [SignalingMessage] {
        (outputs[device] ?? []).compactMap { if case .send(let signal) = $0 { signal } else { nil } }
    }

    /// The manage-call events a device's application received, in order.
    func events(_ device: String) -> [ManageCallEvent] {
        (outputs[device] ?? []).compactMap {
            if case .manageCallEvent(_, _, let event) = $0 { event } else { nil }
        }
    }

    /// The manage-call errors a device's application received, in order.
    func manageCallErrors(_ device: String) -> [ManageCallError] {
        (outputs[device] ?? []).compactMap {
            if case .manageCallError(_, _, let error) = $0 { error } else { nil }
        }
    }

    func state(_ device: String) -> CallSessionState? { clients[device]?.currentCall?.state }
}

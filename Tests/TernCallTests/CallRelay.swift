import TernCall
import TernSignaling
import TernCore
import TernTestSupport

/// An in-test stand-in for the signaling server and the peer data channel: it
/// routes `SignalingMessage`s between `CallClient` cores of several devices following
/// Docs/SIGNALING.md (invite to every device of the callee, first ringing, first
/// accept wins + answeredElsewhere, reject policies, cancel, hangup, server timeout),
/// relays `manage-call` bytes between the two parties, and records what each
/// device's application sees. Time moves only through `advance(to:)`.
final class CallRelay {
    struct ServerCall {
        var caller: String
        var ringing: [String]
        var answeredBy: String?
        var deadline: Instant
        var rejects: [RejectReason] = []
        var ringingForwarded = false
    }

    /// How a reject from one of several devices ends the call (`rejectPolicy`).
    enum RejectPolicy { case all, any }

    private let clock = VirtualClock()
    var now: Instant { clock.now }
    var clients: [String: CallClient] = [:]
    var userOf: [String: String] = [:]
    var calls: [String: ServerCall] = [:]
    var rejectPolicy = RejectPolicy.all
    /// Devices whose signaling connection is down (the server drops what it would send them).
    var offline: Set<String> = []

    /// What each device's application saw: "RINGING", "ENDED(noAnswer)", "status:reconnecting".
    var states: [String: [String]] = [:]
    /// Every output of each device, in order.
    var outputs: [String: [CallOutput]] = [:]
    private var queue: [(String, SignalingMessage)] = []

    init(devices: [String: String], configuration: CallConfiguration = CallConfiguration()) {
        for (device, user) in devices {
            userOf[device] = user
            var client = CallClient(configuration: configuration)
            // Start-up outputs (connectSignaling, running) are not recorded: tests
            // assert what happens from the first call on.
            _ = try? client.start(now: now)
            _ = client.signalingConnected(now: now)
            clients[device] = client
        }
    }

    // MARK: - Applying inputs

    /// Runs `body` on `device`'s core and processes its outputs (and everything they cause).
    @discardableResult
    func on(_ device: String, _ body: (inout CallClient) throws -> [CallOutput]) throws -> [CallOutput] {
        guard var client = clients[device] else { return [] }
        let out = try body(&client)
        clients[device] = client
        process(device, out)
        return out
    }

    /// Reports a transport event for the device's current call.
    func transport(_ device: String, _ event: CallTransportEvent) {
        guard let callId = clients[device]?.currentCall?.callId else { return }
        _ = try? on(device) { $0.transportChanged(callId: callId, event, now: now) }
    }

    /// Both parties' transports connect (the driver did offer/answer and ICE).
    func connect(_ a: String, _ b: String) {
        transport(a, .connected)
        transport(b, .connected)
    }

    /// Both drivers report the renegotiation done.
    func renegotiated(_ a: String, _ b: String) {
        for device in [a, b] {
            guard let callId = clients[device]?.currentCall?.callId else { continue }
            _ = try? on(device) { $0.videoRenegotiated(callId: callId, now: now) }
        }
    }

    /// Moves time to `target`, firing the server's and every core's timers on the way
    /// (the server's first when they fall on the same instant).
    func advance(to target: Instant) {
        clock.advance(to: target) {
            clients.values.compactMap(\.nextTimeout) + calls.values.filter { $0.answeredBy == nil }.map(\.deadline)
        } fire: { now in
            serverTimeouts()
            for device in clients.keys.sorted() {
                guard let due = clients[device]?.nextTimeout, due <= now else { continue }
                _ = try? on(device) { $0.handleTimeout(now: now) }
            }
        }
    }

    func advance(by duration: Duration) { advance(to: now + duration) }

    // MARK: - Processing outputs

    func process(_ device: String, _ out: [CallOutput]) {
        record(device, out)
        for output in out {
            switch output {
            case .send(let signal):
                guard !offline.contains(device) else { continue }
                server(from: device, signal)
            case .sendManageCall(let callId, let bytes):
                guard let peer = otherParty(of: device, callId: callId) else { continue }
                _ = try? on(peer) { $0.receiveManageCall(callId: callId, bytes: bytes, now: now) }
            default:
                continue
            }
        }
        while !queue.isEmpty {
            let (target, signal) = queue.removeFirst()
            guard !offline.contains(target) else { continue }
            _ = try? on(target) { $0.receive(signal, now: now) }
        }
    }

    private func record(_ device: String, _ out: [CallOutput]) {
        outputs[device, default: []] += out
        for output in out {
            switch output {
            case .stateChanged(let change):
                states[device, default: []].append(change.reason.map { "ENDED(\($0))" } ?? change.state.rawValue)
            case .connectionStatusChanged(_, _, let status):
                states[device, default: []].append("status:\(status)")
            case .signalingStatusChanged(_, _, let status):
                states[device, default: []].append("signaling:\(status)")
            default:
                continue
            }
        }
    }

    func otherParty(of device: String, callId: String) -> String? {
        guard let call = calls[callId], let answered = call.answeredBy else { return nil }
        return device == call.caller ? answered : call.caller
    }

    /// Messages for a device that is offline while the server holds its calls, as the server
    /// holds them for its `resume`.
    var held: [String: [SignalingMessage]] = [:]

    private func deliver(_ signal: SignalingMessage, to device: String) {
        if offline.contains(device), held[device] != nil {
            held[device, default: []].append(signal)
        } else {
            queue.append((device, signal))
        }
    }

    // MARK: - The server (Docs/SIGNALING.md)

    private func server(from device: String, _ signal: SignalingMessage) {
        if case .resume(let ids) = signal { return resume(ids, from: device) }
        guard let callId = signal.callId else { return }
        switch signal {
        case .invite(var invite):
            invite.from = userOf[device] ?? ""
            let targets = userOf.filter { $0.value == invite.callee && $0.key != device }.map(\.key).sorted()
            guard !targets.isEmpty else { return deliver(.reject(callId: callId, reason: .unavailable), to: device) }
            calls[callId] = ServerCall(caller: device, ringing: targets,
                                       deadline: now + .milliseconds(invite.ringTimeoutMs))
            for target in targets { deliver(.invite(invite), to: target) }
        case .ringing:
            guard var call = calls[callId], call.ringing.contains(device), !call.ringingForwarded else { return }
            call.ringingForwarded = true // the caller gets the first ringing only
            calls[callId] = call
            deliver(signal, to: call.caller)
        case .accept:
            guard var call = calls[callId], call.answeredBy == nil, call.ringing.contains(device) else { return }
            call.answeredBy = device
            for other in call.ringing where other != device { deliver(.answeredElsewhere(callId: callId), to: other) }
            call.ringing = []
            calls[callId] = call
            deliver(.accept(callId: callId), to: call.caller)
        case .reject(_, let reason, _):
            guard var call = calls[callId], call.answeredBy == nil, call.ringing.contains(device) else { return }
            call.ringing.removeAll { $0 == device }
            call.rejects.append(reason)
            if rejectPolicy == .any {
                for other in call.ringing { deliver(.rejectedElsewhere(callId: callId), to: other) }
                calls[callId] = nil
                deliver(.reject(callId: callId, reason: reason), to: call.caller)
            } else if call.ringing.isEmpty {
                calls[callId] = nil
                let reason: RejectReason = call.rejects.contains(.declined) ? .declined
                    : call.rejects.contains(.busy) ? .busy : .unavailable
                deliver(.reject(callId: callId, reason: reason), to: call.caller)
            } else {
                calls[callId] = call
            }
        case .cancel, .hangup:
            guard let call = calls[callId] else { return }
            calls[callId] = nil
            if let answered = call.answeredBy {
                deliver(.hangup(callId: callId), to: device == call.caller ? answered : call.caller)
            } else if device == call.caller {
                for other in call.ringing { deliver(.cancel(callId: callId), to: other) }
            }
        default:
            return // server-only messages are refused by the real server
        }
    }

    private func serverTimeouts() {
        for (callId, call) in calls where call.answeredBy == nil && now >= call.deadline {
            calls[callId] = nil
            deliver(.timeout(callId: callId), to: call.caller)
            for device in call.ringing { deliver(.timeout(callId: callId), to: device) }
        }
        if !queue.isEmpty { process("", []) }
    }

    /// The device's signaling connection drops: the server holds the calls it placed or answered
    /// for a `resume` (what is sent to it waits in `held`); as a ringing device it is gone
    /// (Docs/SIGNALING.md "Resuming calls"). `endHeldCalls` is the server's window passing.
    func dropConnection(_ device: String) {
        offline.insert(device)
        held[device] = []
        for (callId, call) in calls where call.answeredBy == nil && call.ringing.contains(device) {
            var call = call
            call.ringing.removeAll { $0 == device }
            if call.ringing.isEmpty {
                calls[callId] = nil
                deliver(.reject(callId: callId, reason: .unavailable), to: call.caller)
            } else {
                calls[callId] = call
            }
        }
        _ = try? on(device) { $0.signalingLost(now: now) }
    }

    /// The server's resume window for `device` passed: its held calls end as a close would end them.
    func endHeldCalls(_ device: String) {
        held[device] = nil
        for (callId, call) in calls.sorted(by: { $0.key < $1.key }) where call.caller == device || call.answeredBy == device {
            calls[callId] = nil
            if let answered = call.answeredBy {
                deliver(.hangup(callId: callId), to: device == call.caller ? answered : call.caller)
            } else {
                for other in call.ringing { deliver(.cancel(callId: callId), to: other) }
            }
        }
        if !queue.isEmpty { process("", []) }
    }

    /// The device's connection is back and registered (the core then sends `resume`).
    func reconnect(_ device: String) {
        while clients[device]?.state == .paused { advance(by: .milliseconds(100)) }
        offline.remove(device)
        _ = try? on(device) { $0.signalingConnected(now: now) }
    }

    private func resume(_ ids: [String], from device: String) {
        var resumed: [ResumedCall] = []
        for id in ids {
            guard let call = calls[id], call.caller == device || call.answeredBy == device else {
                deliver(.error(SignalingError(code: .callGone, message: "the call has ended", callId: id)), to: device)
                continue
            }
            resumed.append(ResumedCall(callId: id, state: call.answeredBy == nil ? .ringing : .answered))
        }
        let replay = held.removeValue(forKey: device) ?? []
        deliver(.resumed(calls: resumed), to: device)
        for message in replay where resumed.contains(where: { $0.callId == message.callId }) { deliver(message, to: device) }
    }
}

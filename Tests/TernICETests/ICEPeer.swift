import Synchronization
import TernCore
@testable import TernICE

/// One side of a test connection: records events and received datagrams, and forwards
/// its candidates and end-of-candidates to the other side (an in-process signalling channel).
final class ICEPeer: Sendable {
    let transport: ICETransport
    let events = Mutex<[ICEEvent]>([])
    let received = Mutex<[[UInt8]]>([])
    let forwarding = Atomic(true)

    convenience init(_ role: ICERole, _ configuration: ICEConfiguration = .loopback) throws {
        try self.init(role, ICETransport(configuration: configuration, role: role))
    }

    init(_ role: ICERole, _ transport: ICETransport) {
        self.transport = transport
        transport.setReceiveHandler { [weak self] datagram in self?.received.withLock { $0.append(datagram) } }
    }

    /// Starts consuming `events`; candidates go to `other` while `forwarding` is set.
    func forward(to other: ICEPeer) -> Task<Void, Never> {
        let stream = transport.events
        return Task { [self] in
            for await event in stream {
                events.withLock { $0.append(event) }
                guard forwarding.load(ordering: .relaxed) else { continue }
                switch event {
                case let .candidate(c): try? other.transport.addRemoteCandidate(c.candidateString)
                case .gatheringComplete: try? other.transport.addRemoteEndOfCandidates()
                default: break
                }
            }
        }
    }

    var states: [ICETransportState] {
        events.withLock { $0.compactMap { if case let .stateChanged(s) = $0 { s } else { nil } } }
    }

    var selectedPairs: [ICECandidatePair] {
        events.withLock { $0.compactMap { if case let .selectedPairChanged(p) = $0 { p } else { nil } } }
    }

    func saw(_ state: ICETransportState) -> Bool { states.contains(state) }
}

extension ICEConfiguration {
    /// Host candidates on 127.0.0.1 only.
    static var loopback: ICEConfiguration {
        var c = ICEConfiguration()
        c.allowedAddresses = ["127.0.0.1"]
        return c
    }
}

/// Exchanges credentials, starts forwarding both ways and gathers on both sides.
func wire(_ a: ICEPeer, _ b: ICEPeer) throws -> [Task<Void, Never>] {
    try a.transport.setRemoteCredentials(b.transport.localCredentials)
    try b.transport.setRemoteCredentials(a.transport.localCredentials)
    let tasks = [a.forward(to: b), b.forward(to: a)]
    try a.transport.gather()
    try b.transport.gather()
    return tasks
}

/// Polls `condition` every 5 ms until it holds or `timeout` worth of polls have run (a bound, not
/// a measurement). The bound counts polls, not wall-clock time: in a full parallel test run on 2
/// cores, CPU-bound suites can hold both cooperative threads — and with them this task and the
/// tasks that forward candidates — for over 30 s (seen in CI), and a wall-clock deadline expired
/// while nothing could run. The wall clock still caps the wait at four times `timeout`.
func eventually(within timeout: Duration = .seconds(30), _ condition: () -> Bool) async -> Bool {
    let interval = Duration.milliseconds(5)
    let cap = ContinuousClock.now + timeout * 4
    var polls = Int(timeout / interval)
    while polls > 0, ContinuousClock.now < cap {
        if condition() { return true }
        try? await Task.sleep(for: interval)
        polls -= 1
    }
    return condition()
}

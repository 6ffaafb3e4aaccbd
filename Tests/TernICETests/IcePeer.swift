import Synchronization
import TernCore
@testable import TernICE

/// One side of a test connection: records events and received datagrams, and forwards
/// its candidates and end-of-candidates to the other side (an in-process signalling channel).
final class IcePeer: Sendable {
    let transport: IceTransport
    let events = Mutex<[IceEvent]>([])
    let received = Mutex<[[UInt8]]>([])
    let forwarding = Atomic(true)

    convenience init(_ role: IceRole, _ configuration: IceConfiguration = .loopback) throws {
        try self.init(role, IceTransport(configuration: configuration, role: role))
    }

    init(_ role: IceRole, _ transport: IceTransport) {
        self.transport = transport
        transport.setReceiveHandler { [weak self] datagram in self?.received.withLock { $0.append(datagram) } }
    }

    /// Starts consuming `events`; candidates go to `other` while `forwarding` is set.
    func forward(to other: IcePeer) -> Task<Void, Never> {
        let stream = transport.events
        return Task { [self] in
            for await event in stream {
                events.withLock { $0.append(event) }
                guard forwarding.load(ordering: .relaxed) else { continue }
                switch event {
                case let .candidate(c): try? other.transport.addRemoteCandidate(c.sdp)
                case .gatheringComplete: try? other.transport.addRemoteEndOfCandidates()
                default: break
                }
            }
        }
    }

    var states: [IceTransportState] {
        events.withLock { $0.compactMap { if case let .stateChanged(s) = $0 { s } else { nil } } }
    }

    var selectedPairs: [IceCandidatePair] {
        events.withLock { $0.compactMap { if case let .selectedPairChanged(p) = $0 { p } else { nil } } }
    }

    func saw(_ state: IceTransportState) -> Bool { states.contains(state) }
}

extension IceConfiguration {
    /// Host candidates on 127.0.0.1 only.
    static var loopback: IceConfiguration {
        var c = IceConfiguration()
        c.allowedAddresses = ["127.0.0.1"]
        return c
    }
}

/// Exchanges credentials, starts forwarding both ways and gathers on both sides.
func wire(_ a: IcePeer, _ b: IcePeer) throws -> [Task<Void, Never>] {
    try a.transport.setRemoteCredentials(b.transport.localCredentials)
    try b.transport.setRemoteCredentials(a.transport.localCredentials)
    let tasks = [a.forward(to: b), b.forward(to: a)]
    try a.transport.gather()
    try b.transport.gather()
    return tasks
}

/// Polls `condition` every 5 ms until it holds or `timeout` passes (a bound, not a measurement).
/// The bound is generous: in a full parallel test run on 2 cores, CPU-bound suites can hold the
/// cooperative threads that forward candidates for seconds; a healthy run passes in milliseconds.
func eventually(within timeout: Duration = .seconds(30), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}

import TernCore
import TernSCTP
public import TernTestSupport

extension DataChannelEndpoint: SansIOEndpoint {}

/// Two data channel endpoints (DTLS client `a`, server `b`) over a `SimulatedLink`.
final class DataChannelHarness {
    let pair: SansIOPair<DataChannelEndpoint>
    var eventsA: [DataChannelEvent] = []
    var eventsB: [DataChannelEvent] = []
    var a: DataChannelEndpoint { pair.a }
    var b: DataChannelEndpoint { pair.b }
    var now: Instant { pair.now }

    /// With `snap`, each endpoint knows both INITs, as two descriptions with `a=sctp-init` give them.
    init(conditions: SimulatedLink.Conditions = .perfect, seed: UInt64 = 1, snap: Bool = false,
         configure: (inout SCTPAssociationConfig) -> Void = { _ in }) {
        var ca = SCTPAssociationConfig.testDefault(seed: 101)
        var cb = SCTPAssociationConfig.testDefault(seed: 202)
        configure(&ca)
        configure(&cb)
        let initA = snap ? SCTPAssociation.makeInit(config: ca) : nil
        let initB = snap ? SCTPAssociation.makeInit(config: cb) : nil
        pair = SansIOPair(a: DataChannelEndpoint(role: .client, config: ca, localInit: initA, peerInit: initB),
                          b: DataChannelEndpoint(role: .server, config: cb, localInit: initB, peerInit: initA),
                          conditions: conditions, seed: seed)
        pair.onStep = { [unowned self] in self.drain() }
    }

    /// When false, b's events are left queued (an application that stopped reading).
    var drainB = true

    func drain() {
        while let e = a.pollEvent() { eventsA.append(e) }
        while drainB, let e = b.pollEvent() { eventsB.append(e) }
    }

    @discardableResult
    func connect() -> Bool {
        a.connect(now: now)
        b.connect(now: now)
        return pair.run(for: .seconds(30)) { eventsA.contains(.connected) && eventsB.contains(.connected) }
    }

    func messages(_ events: [DataChannelEvent], on id: UInt16) -> [DataChannelMessage] {
        events.compactMap { if case let .message(cid, m) = $0, cid == id { m } else { nil } }
    }

    func opened(_ events: [DataChannelEvent]) -> [DataChannelInfo] {
        events.compactMap { if case let .channelOpened(i) = $0 { i } else { nil } }
    }

    func closed(_ events: [DataChannelEvent]) -> [(UInt16, String)] {
        events.compactMap { if case let .channelClosed(id, r) = $0 { (id, r) } else { nil } }
    }
}

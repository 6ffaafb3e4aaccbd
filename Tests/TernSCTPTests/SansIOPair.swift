import TernCore
import TernSCTP

/// What the test loop needs from a sans-I/O SCTP endpoint.
protocol SansIOEndpoint: AnyObject {
    func handle(packet: [UInt8], now: Instant)
    func handleTimeout(now: Instant)
    func pollTransmit(now: Instant) -> [UInt8]?
    var nextTimeout: Instant? { get }
}

extension SCTPAssociation: SansIOEndpoint {}

/// Two endpoints joined by a `SimulatedLink`, driven in virtual time (str0m's `progress()`):
/// each step advances to the earliest of the link's next delivery and both endpoints' timers.
final class SansIOPair<E: SansIOEndpoint> {
    let a: E
    let b: E
    var link: SimulatedLink
    private(set) var now: Instant = .zero
    /// Called after every step so tests can drain events.
    var onStep: () -> Void = {}
    /// Optional filter: return false to drop a datagram travelling to `to` (scenario control).
    var deliverFilter: (SimulatedLink.End, [UInt8]) -> Bool = { _, _ in true }

    init(a: E, b: E, conditions: SimulatedLink.Conditions = .perfect, seed: UInt64 = 1) {
        self.a = a
        self.b = b
        link = SimulatedLink(conditions: conditions, seed: seed)
    }

    func flush() {
        while let p = a.pollTransmit(now: now) { link.send(from: .a, datagram: p, at: now) }
        while let p = b.pollTransmit(now: now) { link.send(from: .b, datagram: p, at: now) }
    }

    /// One step of virtual time; false when nothing at all is pending.
    @discardableResult
    func step() -> Bool {
        flush()
        let next = [link.nextDeliveryTime, a.nextTimeout, b.nextTimeout].compactMap { $0 }.min()
        guard let next else { return false }
        now = max(now, next)
        for d in link.deliverDue(at: now) where deliverFilter(d.to, d.datagram) {
            (d.to == .a ? a : b).handle(packet: d.datagram, now: now)
        }
        if let t = a.nextTimeout, t <= now { a.handleTimeout(now: now) }
        if let t = b.nextTimeout, t <= now { b.handleTimeout(now: now) }
        flush()
        onStep()
        return true
    }

    /// Steps until `done()` or until `limit` of virtual time has passed; returns `done()`.
    @discardableResult
    func run(for limit: Duration = .seconds(600), until done: () -> Bool) -> Bool {
        let end = now + limit
        while !done(), now < end {
            if !step() { break }
        }
        return done()
    }
}

/// Two associations, events collected.
final class AssociationHarness {
    let pair: SansIOPair<SCTPAssociation>
    var eventsA: [SCTPAssociationEvent] = []
    var eventsB: [SCTPAssociationEvent] = []
    var messagesB: [SCTPMessage] = []
    var messagesA: [SCTPMessage] = []
    var a: SCTPAssociation { pair.a }
    var b: SCTPAssociation { pair.b }

    init(configA: SCTPAssociationConfig = .testDefault(seed: 11), configB: SCTPAssociationConfig = .testDefault(seed: 22),
         conditions: SimulatedLink.Conditions = .perfect, seed: UInt64 = 1) {
        pair = SansIOPair(a: SCTPAssociation(config: configA), b: SCTPAssociation(config: configB),
                          conditions: conditions, seed: seed)
        pair.onStep = { [unowned self] in self.drain() }
    }

    /// When false, b's events are left queued (an application that stopped reading).
    var drainB = true

    func drain() {
        while let e = a.pollEvent() {
            if case let .message(m) = e { messagesA.append(m) } else { eventsA.append(e) }
        }
        while drainB, let e = b.pollEvent() {
            if case let .message(m) = e { messagesB.append(m) } else { eventsB.append(e) }
        }
    }

    /// Both sides send INIT at once, as WebRTC endpoints do; returns when both are established.
    @discardableResult
    func connect() -> Bool {
        a.connect(now: pair.now)
        b.connect(now: pair.now)
        return pair.run(for: .seconds(30)) { a.state == .established && b.state == .established }
    }
}

extension SCTPAssociationConfig {
    static func testDefault(seed: UInt64) -> SCTPAssociationConfig {
        var c = SCTPAssociationConfig()
        c.randomSeed = seed
        return c
    }
}

extension SCTPPacket {
    /// A crafted packet on a real association: this packet's ports and tag (or `verificationTag`)
    /// with other chunks.
    func with(chunks: [SCTPChunk], verificationTag: UInt32? = nil) -> SCTPPacket {
        SCTPPacket(sourcePort: sourcePort, destinationPort: destinationPort,
                   verificationTag: verificationTag ?? self.verificationTag, chunks: chunks)
    }

    /// A crafted packet going the other way: ports swapped, the receiver's `verificationTag`.
    func answer(chunks: [SCTPChunk], verificationTag: UInt32) -> SCTPPacket {
        SCTPPacket(sourcePort: destinationPort, destinationPort: sourcePort, verificationTag: verificationTag, chunks: chunks)
    }
}

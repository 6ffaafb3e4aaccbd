public import TernCore

/// What the virtual-time loop needs from a sans-I/O protocol core (SCTP association, data
/// channel endpoint, DTLS endpoint): input with the time, timers, output to poll.
public protocol SansIOEndpoint: AnyObject {
    func handle(packet: [UInt8], now: Instant)
    func handleTimeout(now: Instant)
    func pollTransmit(now: Instant) -> [UInt8]?
    var nextTimeout: Instant? { get }
}

/// Two endpoints joined by a `SimulatedLink`, driven in virtual time (str0m's `progress()`):
/// each step advances to the earliest of the link's next delivery and both endpoints' timers.
/// No clock is read and no thread started, so a run is the same for a seed every time.
public final class SansIOPair<E: SansIOEndpoint> {
    public let a: E
    public let b: E
    public var link: SimulatedLink
    private let clock = VirtualClock()
    /// The current virtual time.
    public var now: Instant { clock.now }
    /// Called after every step so tests can drain events.
    public var onStep: () -> Void = {}
    /// Return false to drop a datagram travelling to `to` (scenario control).
    public var deliverFilter: (SimulatedLink.End, [UInt8]) -> Bool = { _, _ in true }
    /// What an end's datagram becomes before the link takes it: itself by default; a recorder,
    /// a man in the middle or a re-fragmenter returns something else.
    public var outbound: (SimulatedLink.End, [UInt8]) -> [[UInt8]] = { _, datagram in [datagram] }

    public init(a: E, b: E, conditions: SimulatedLink.Conditions = .perfect, seed: UInt64 = 1) {
        self.a = a
        self.b = b
        link = SimulatedLink(conditions: conditions, seed: seed)
    }

    /// Moves what both ends have to send onto the link.
    public func flush() {
        for (end, endpoint) in [(SimulatedLink.End.a, a), (.b, b)] {
            while let datagram = endpoint.pollTransmit(now: now) {
                for sent in outbound(end, datagram) { link.send(from: end, datagram: sent, at: now) }
            }
        }
    }

    /// One step of virtual time; false when nothing is pending (or nothing before `deadline`).
    @discardableResult
    public func step(notAfter deadline: Instant? = nil) -> Bool {
        flush()
        guard clock.moveToNext(of: [link.nextDeliveryTime, a.nextTimeout, b.nextTimeout].compactMap { $0 },
                               notAfter: deadline) else { return false }
        for delivery in link.deliverDue(at: now) where deliverFilter(delivery.to, delivery.datagram) {
            (delivery.to == .a ? a : b).handle(packet: delivery.datagram, now: now)
        }
        if let t = a.nextTimeout, t <= now { a.handleTimeout(now: now) }
        if let t = b.nextTimeout, t <= now { b.handleTimeout(now: now) }
        flush()
        onStep()
        return true
    }

    /// Steps until `done()`, or until nothing is pending within `limit` of virtual time from
    /// now (time never moves past it); returns `done()`.
    @discardableResult
    public func run(for limit: Duration = .seconds(600), until done: () -> Bool) -> Bool {
        let end = now + limit
        while !done() {
            if !step(notAfter: end) { break }
        }
        return done()
    }
}

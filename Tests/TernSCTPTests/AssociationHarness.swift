import TernCore
import TernSCTP
public import TernTestSupport

extension SCTPAssociation: SansIOEndpoint {}

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

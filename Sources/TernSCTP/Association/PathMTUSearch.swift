internal import TernCore

/// Datagram Packetization Layer PMTU Discovery for SCTP over DTLS (RFC 8899 §4, §6.2; RFC 8831
/// §5 asks WebRTC data channels to use it): finds how large an SCTP packet the path carries,
/// starting from the safe 1,200 bytes, with probe packets that carry no data (a HEARTBEAT padded
/// by a PAD chunk, RFC 4820). Sans-I/O: the association asks for the next probe, reports the
/// acknowledgement or the timeout, and reads `packetSize`.
///
/// Only packets grow, never chunks: DATA chunks stay fragmented at the base size and several are
/// bundled into one packet of up to `packetSize`. So when a smaller path appears (black hole,
/// §4.3: a retransmission timeout while packets were larger than the base), falling back costs
/// nothing — every outstanding chunk still fits a base-size packet.
///
/// Search (§5.3 leaves the algorithm open): the candidates are tried from the largest down — the
/// most the layers below can carry (a DTLS record, 16 KiB), a jumbo-frame path, an Ethernet path
/// — each up to `maxProbes` times; the first acknowledged one is the result. On loopback the
/// first probe succeeds; across an Ethernet-sized path two candidates time out first. Probes
/// that exceed the local interface's MTU never leave the host (the ICE socket sets DF).
struct PathMTUSearch {
    enum State: Equatable {
        /// Not searching yet (the association is not established).
        case base
        /// A candidate is being probed.
        case searching
        /// Done: `packetSize` is the largest size acknowledged.
        case complete
    }

    /// RFC 8899 §5.1.2 MAX_PROBES.
    static let maxProbes = 3
    /// SCTP packet sizes that fit common paths under IPv6 (40) + UDP (8) + DTLS 1.2 AEAD record
    /// overhead (13 header + 8 explicit nonce + 16 tag): a 9,000-byte jumbo frame and a
    /// 1,500-byte Ethernet frame.
    static let jumboFramePacket = 9_000 - 40 - 8 - 37
    static let ethernetPacket = SCTPAssociationConfig.packetSizeForUnknownPeers

    /// BASE_PLPMTU: the size that needs no discovery (RFC 8831 §5: 1,200 bytes).
    let basePacketSize: Int
    /// The largest the layers below can carry at all (the configuration's cap).
    let configuredMaximum: Int
    /// MAX_PLPMTU: the largest worth probing on this path — the configured cap, lowered to what
    /// the local interface's MTU allows once the layer below says (RFC 8899 §5.1.2).
    private(set) var maximumPacketSize: Int
    /// How long an unacknowledged probe is waited for (RFC 8899 §5.1.1 PROBE_TIMER, at least 1 s).
    let probeTimeout: Duration

    private(set) var state: State = .base
    /// The confirmed packet size (PLPMTU).
    private(set) var packetSize: Int
    /// Candidates not yet tried, largest first.
    private var candidates: [Int] = []
    /// The size being probed, the probes sent for it, and when the last one times out.
    private(set) var probeSize: Int?
    private var probesSent = 0
    private(set) var probeDeadline: Instant?
    /// Identifies the probe in flight (echoed in the HEARTBEAT ACK).
    private(set) var probeNonce: UInt32 = 0

    init(basePacketSize: Int, maximumPacketSize: Int, probeTimeout: Duration = .seconds(1)) {
        self.basePacketSize = basePacketSize
        self.configuredMaximum = max(basePacketSize, maximumPacketSize)
        self.maximumPacketSize = configuredMaximum
        self.probeTimeout = max(probeTimeout, .milliseconds(1))
        packetSize = basePacketSize
    }

    /// Starts (or restarts) the search from the base size.
    mutating func start() {
        // Probe packets are whole words (chunks are padded to 4 bytes).
        let sizes = [maximumPacketSize, Self.jumboFramePacket, Self.ethernetPacket].map { $0 & ~3 }
        candidates = Array(Set(sizes.filter { $0 > basePacketSize && $0 <= maximumPacketSize })).sorted(by: >)
        probeSize = nil
        probesSent = 0
        probeDeadline = nil
        state = candidates.isEmpty ? .complete : .searching
    }

    /// The size of the probe to send now, if one is due: call when building packets. The caller
    /// sends a probe of exactly that size carrying `probeNonce`.
    mutating func probeToSend(now: Instant, nonce: UInt32) -> Int? {
        guard state == .searching, probeDeadline == nil else { return nil }
        if probeSize == nil {
            guard !candidates.isEmpty else {
                state = .complete
                return nil
            }
            probeSize = candidates.removeFirst()
            probesSent = 0
        }
        probesSent += 1
        probeNonce = nonce
        probeDeadline = now + probeTimeout
        return probeSize
    }

    /// A HEARTBEAT ACK echoed `nonce`: the probe got through.
    mutating func probeAcknowledged(nonce: UInt32) {
        guard state == .searching, let size = probeSize, probeDeadline != nil, nonce == probeNonce else { return }
        packetSize = size
        state = .complete  // candidates are tried largest first: nothing larger is left to find
        probeSize = nil
        probeDeadline = nil
    }

    /// Call when `probeDeadline` passed: the probe is counted lost; after `maxProbes` losses the
    /// next smaller candidate is tried.
    mutating func probeTimedOut(now: Instant) {
        guard let deadline = probeDeadline, now >= deadline else { return }
        probeDeadline = nil
        if probesSent >= Self.maxProbes {
            probeSize = nil
            if candidates.isEmpty { state = .complete }
        }
    }

    /// The layer below learned how large a packet the path's first hop takes (the local route's
    /// MTU minus the headers under SCTP), or that it does not know (nil: the configured cap).
    /// Sizes above that are never probed — a probe larger than the interface's MTU cannot even
    /// leave the host — so an Ethernet path settles on its first probe instead of after two
    /// candidates' worth of timeouts. A changed limit starts the search again (a new path).
    mutating func pathLimitChanged(to limit: Int?, searching: Bool) {
        let maximum = max(basePacketSize, min(configuredMaximum, limit ?? configuredMaximum))
        guard maximum != maximumPacketSize else { return }
        maximumPacketSize = maximum
        if packetSize > maximum { packetSize = basePacketSize }
        if searching { start() }
    }

    /// §4.3 black-hole detection: packets larger than the base stopped getting through (the
    /// association saw a retransmission timeout). Falls back to the base size and searches again.
    mutating func blackHoleSuspected() {
        guard packetSize > basePacketSize || state == .searching else { return }
        packetSize = basePacketSize
        start()
    }
}

/// Knobs of an `SCTPAssociation`. Defaults suit WebRTC data channels over DTLS
/// (RFC 8831 §6, RFC 8841) at real-world latencies.
public struct SCTPAssociationConfig: Sendable {
    /// Local SCTP port (RFC 8841 §5: default 5000, from `a=sctp-port`).
    public var localPort: UInt16 = 5000
    /// Remote SCTP port.
    public var remotePort: UInt16 = 5000
    /// Largest SCTP packet sent, common header included (the DTLS record payload). RFC 8831 §5
    /// recommends 1200 bytes so the packet fits any path's MTU after DTLS/UDP/IP overhead.
    public var mtu: Int = 1200
    /// Discover larger packets than `mtu` (RFC 8899 DPLPMTUD, as RFC 8831 §5 asks): probes of up
    /// to `maximumPacketSize` bytes, and DATA chunks (still cut at `mtu`) bundled into packets of
    /// the largest size the path acknowledged. Costs three small probes on a typical path and
    /// nothing when the peer does not answer them.
    public var pathMTUDiscovery = true
    /// The largest SCTP packet DPLPMTUD may try: a DTLS record's plaintext limit (RFC 6347, 2^14).
    /// The peer connection lowers it to `packetSizeForUnknownPeers` unless the peer said it reads
    /// larger records whole.
    public var maximumPacketSize: Int = 16_384
    /// The largest packet sent to a peer that did not advertise more: one Ethernet frame minus
    /// IPv6, UDP and DTLS overhead, which also fits the 1,500-byte record buffer some stacks
    /// (aiortc) read DTLS into — a larger record arrives cut in pieces there and garbles the
    /// packets behind it.
    public static let packetSizeForUnknownPeers = 1_412
    /// How long a DPLPMTUD probe is waited for before it counts as lost (RFC 8899: at least 1 s).
    public var pathMTUProbeTimeout: Duration = .seconds(1)
    /// Receive buffer advertised as a_rwnd (RFC 9260 §6.2). Large, so one association can keep
    /// ≈ 8 MiB in flight: 8 MiB / 50 ms RTT ≈ 165 MB/s before the window limits throughput
    /// (memory is only used while data is actually buffered: out of order, or not yet polled).
    /// Raised automatically to hold one `maxMessageSize` message (see `receiveBufferSize`).
    public var receiveWindow: Int = 8 * 1024 * 1024
    /// Most bytes `send` queues (not yet acknowledged) before it refuses with `.sendBufferFull`.
    public var sendBufferSize: Int = 64 * 1024 * 1024
    /// Largest incoming message reassembled; bigger ones are discarded (RFC 8841 max-message-size).
    /// 256 KiB by default; 16 MiB and more work if configured.
    public var maxMessageSize: Int = 256 * 1024
    /// Outbound streams requested in INIT (the effective count is the minimum with the peer's MIS).
    public var outboundStreams: UInt16 = 65535
    /// Maximum inbound streams accepted.
    public var inboundStreams: UInt16 = 65535
    /// RTO.Initial (RFC 9260 §16: 1 s).
    public var rtoInitial: Duration = .seconds(1)
    /// RTO.Min. RFC 9260 says 1 s; WebRTC stacks (dcSCTP) use a few hundred ms. Kept above a
    /// peer's delayed-SACK timeout (RFC 9260 §6.2 allows 200 ms) plus a round trip, so a packet
    /// whose SACK is merely delayed is not retransmitted.
    public var rtoMin: Duration = .milliseconds(250)
    /// RTO.Max (RFC 9260 §16: 60 s).
    public var rtoMax: Duration = .seconds(60)
    /// Association.Max.Retrans (RFC 9260 §16: 10): consecutive unanswered retransmissions or
    /// heartbeats after which the peer is declared unreachable and the association closes.
    public var maxRetransmissions: Int = 10
    /// Max.Init.Retransmits (RFC 9260 §16: 8).
    public var maxInitRetransmissions: Int = 8
    /// HB.interval (RFC 9260 §16: 30 s): heartbeat period while idle.
    public var heartbeatInterval: Duration = .seconds(30)
    /// How long the cumulative TSN may stay put while fragments received past it wait for a
    /// hole to be filled, before those fragments are dropped and no longer acknowledged (RFC
    /// 9260 §6.2 lets a receiver renege on gap-acked data). A sender retransmits a hole within
    /// RTO.Max (60 s); one that leaves it open longer holds up to the receive window in
    /// fragments that can never complete. nil keeps them until FORWARD TSN or the end.
    public var staleFragmentTimeout: Duration? = .seconds(60)
    /// Delayed SACK timeout (RFC 9260 §6.2: at most 500 ms; 200 ms is usual). Half of that here,
    /// well under a peer's RTO.Min (ours is `rtoMin`; dcSCTP's and usrsctp's are higher still).
    public var delayedAckTimeout: Duration = .milliseconds(100)
    /// A SACK is sent for every this many packets with DATA. RFC 9260 §6.2 says every second
    /// packet (SHOULD), the default. Above 2, ACK thinning: fewer SACK packets, which at high
    /// packet rates is a large share of both ends' CPU (each packet costs a system call and a
    /// trip through the network stack). Only for a sender that grows its window by bytes
    /// acknowledged, as Tern's does (RFC 3465), not by SACKs counted; a peer connection turns it
    /// on only towards a Tern peer (Docs/SCTP.md "ACK thinning").
    public var sackEveryPackets: Int = 2
    /// With `sackEveryPackets` above 2: once two packets are unacknowledged, the SACK is sent
    /// within this delay even if no more packets come (a sender with a small window must not
    /// wait `delayedAckTimeout` for every round trip).
    public var thinnedSackDelay: Duration = .milliseconds(2)
    /// Slow start grows cwnd by the bytes a SACK newly acknowledges, up to this many packets
    /// (RFC 3465's L; 2 by default). Towards a peer that SACKs every eighth packet, 8 keeps
    /// slow start doubling per round trip (a peer connection sets both together).
    public var slowStartPacketsPerSack: Int = 2
    /// Max.Burst (RFC 9260 §6.1 D, §16: 4): packets with DATA sent in answer to one received
    /// packet (or one timer expiry). Without it a sender whose window opened wide on a
    /// short-RTT path releases the window at once: a message of 256 KiB is ~190 packets in a
    /// burst, and a browser reads UDP through a 64 KiB socket buffer (Chromium's `rb` is 128 KiB
    /// counted in skb truesize, ~55 packets), so the burst overflows it. Limited per input rather
    /// than by shrinking cwnd (the RFC's other option), so the window is kept (dcSCTP does the
    /// same). Towards a peer that SACKs only every `sackEveryPackets`-th packet, the association
    /// allows twice that (`effectiveMaxBurst`), or each SACK would free more than it lets out.
    public var maxBurst: Int = 4
    /// Pace DATA at a multiple of cwnd / SRTT, in bursts of at most `maxBurst` packets
    /// (`Pacer`). Off, packets go out as fast as the window and Max.Burst allow.
    public var pacing = true
    /// Max.Burst as applied: at least two packets per SACK the peer sends (`sackEveryPackets`
    /// in slow start acknowledges that many and lets twice as many out), and at least one.
    var effectiveMaxBurst: Int { max(1, maxBurst, 2 * sackEveryPackets) }
    /// Lifetime of a State Cookie (RFC 9260 §16: Valid.Cookie.Life 60 s).
    public var cookieLifetime: Duration = .seconds(60)
    /// Initial congestion window in bytes; RFC 9260 §7.2.1: min(4·MTU, max(2·MTU, 4380)).
    public var initialCongestionWindow: Int? = nil
    /// Seed for verification tags, initial TSNs and the cookie key; nil draws from the system RNG.
    /// Tests pass a seed to be deterministic.
    public var randomSeed: UInt64? = nil

    /// The defaults above.
    public init() {}
}

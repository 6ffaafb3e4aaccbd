/// How an `ICETransport` gathers and checks candidates (W3C `RTCConfiguration`, ICE part,
/// plus the libnice knobs Tern exposes).
public struct ICEConfiguration: Sendable {
    /// STUN and TURN servers. libnice uses one STUN server (the first); every TURN server is used.
    public var servers: [ICEServer] = []
    /// How `turns:` servers are verified (trust anchors; Docs/ICE.md, "TURN over TLS").
    public var turnTLS = TurnTLSOptions()
    /// `all`, or `relay` to use (and signal) only TURN relay candidates.
    public var transportPolicy: ICETransportPolicy = .all
    /// Also gather RFC 6544 ICE-TCP host candidates. Off by default: browsers rarely pair them and
    /// each one costs a listening socket.
    public var iceTCP: Bool = false
    /// Interval between connectivity checks (RFC 8445 §14.2 "Ta"). libnice defaults to 20 ms;
    /// we use 5 ms: one peer connection has one stream and one component, so the check rate per
    /// transport stays tiny, and it cuts loopback/LAN set-up from ~22 ms to ~7 ms
    /// (Docs/ICE.md). Raise it for many simultaneous transports behind one NAT.
    public var stunPacing: Duration = .milliseconds(5)
    /// Local addresses to gather host candidates on (empty, with `allowedInterfaces` empty too:
    /// every interface).
    public var allowedAddresses: [String] = []
    /// Network interfaces (by name, e.g. `eth0`, `lo`) to gather host candidates on: each adds
    /// the address libnice reads for it (its first IPv4 address) to `allowedAddresses`. An
    /// interface that does not exist or has no address makes `ICETransport.init` throw.
    public var allowedInterfaces: [String] = []
    /// Local port range for host candidates (nil: any port).
    public var portRange: ClosedRange<UInt16>?
    /// Initial STUN retransmission timeout for checks (libnice `stun-initial-timeout`; 500 ms in 0.1.21).
    public var stunInitialTimeout: Duration?
    /// STUN retransmissions before a check fails (libnice `stun-max-retransmissions`; 3 in 0.1.21).
    /// Lower values make `failed` come sooner (e.g. for wrong credentials).
    public var stunMaxRetransmissions: UInt32?
    /// RFC 7675 consent freshness (libnice's timeout is 10 s in 0.1.21, see Docs/ICE.md).
    public var consentFreshness: Bool = true
    /// How this agent nominates a pair when it is the controlling agent. `.regular` (RFC 8445
    /// §8.1.1) by default; `.aggressive` only where a single candidate pair is possible
    /// (`PeerConfiguration.loopback`), see `ICENomination`.
    public var nomination: ICENomination = .regular
    /// Send data on the first valid pair, before nomination selects one (RFC 8445 §12.1: "an
    /// ICE agent MAY send data on any valid pair before selected pairs have been produced"):
    /// the DTLS handshake starts when a connectivity check first succeeds instead of one to two
    /// round trips later, when the controlling agent's nomination has come through. Needs
    /// libnice with Tern's patch (`Scripts/libnice`, its `send-on-valid-pair` property); with
    /// the stock library data waits for the selected pair as before
    /// (`ICETransport.sendsOnValidPairs` tells which). Docs/ICE.md, "Data before nomination".
    public var sendsOnValidPairs: Bool = true
    /// Send the first connectivity check as soon as there is a pair to check, not one
    /// `stunPacing` interval later; the checks after it keep the pacing (RFC 8445 §6.1.4.2
    /// bounds the rate of checks, not the start of the first). Needs Tern's libnice patch
    /// (`Scripts/libnice`, its `first-check-at-once` property); ignored with the stock library.
    public var firstCheckAtOnce: Bool = true
    /// How long a transport stays `disconnected` after libnice reports consent lost before it
    /// becomes `failed`. libnice 0.1.21 expires consent after 10 s instead of RFC 7675's 30 s;
    /// Tern reports that moment as W3C `disconnected` and declares `failed` 20 s later, so the
    /// total matches RFC 7675 §5.1 and the application has time for an ICE restart (Docs/ICE.md).
    public var consentFailureGrace: Duration = .seconds(20)
    /// How often Tern sends its own round-trip probe on the selected pair to measure its
    /// round-trip time (`ICECandidatePair.roundTripTime`), besides one right after each
    /// selection; nil turns probing off (answering the peer's probes stays on). Only a Tern
    /// peer answers; other peers drop the probe (RFC 7983), and after 3 unanswered probes
    /// Tern stops probing that pair. libnice 0.1.21 exposes no check timing and swallows
    /// answers to STUN requests it did not send (Docs/ICE.md, "Selected pair RTT").
    public var roundTripProbeInterval: Duration? = .seconds(1)
    /// How long the selected pair may deliver nothing before the transport reports W3C
    /// `disconnected` — once the peer has answered a round-trip probe, so that its silence means
    /// a lost path and not an idle peer (ICETransport+Liveness.swift). It reports `connected`
    /// again with the next datagram. nil leaves it to consent expiry (10 s in libnice 0.1.21).
    /// Needs `roundTripProbeInterval` (the probes are what keeps an idle pair talking).
    public var disconnectedTimeout: Duration? = .milliseconds(2_500)
    /// How long to wait for a remote `.local` (mDNS) candidate to resolve before dropping it.
    public var mdnsResolutionTimeout: Duration = .seconds(2)
    /// How many remote `.local` candidates one transport resolves; the rest are dropped with a
    /// reason. Each is a multicast query on the local network (answered or expired within
    /// `mdnsResolutionTimeout` by the process's one resolver thread), and a browser signals one
    /// name per host address. Only UUID names are resolved (`ICECandidate.hasMDNSCandidateName`).
    public var maximumMDNSCandidates = 16
    /// The largest datagram `send` accepts: fits RFC 4571 framing (ICE-TCP, TURN-TCP) with
    /// room for TURN's Send-indication overhead (36 bytes).
    public var maximumDatagramSize: Int = 65_000
    /// Receive and send buffer of the selected pair's socket, in bytes (nil keeps the kernel's
    /// default, 208 KiB here). The default holds about 3,500 full-size datagrams: a data channel at
    /// tens of MB/s, or packets a delay line releases in bursts, overflow the default buffer and
    /// every drop costs a retransmission and a congestion-window cut. Set with SO_RCVBUFFORCE /
    /// SO_SNDBUFFORCE when the process may (CAP_NET_ADMIN), else SO_RCVBUF / SO_SNDBUF, which the
    /// kernel caps at net.core.rmem_max / wmem_max.
    public var socketBufferSize: Int? = 4 * 1024 * 1024

    /// Record every candidate pair's connectivity-check states and nominations in the trace
    /// (`ICETrace.Event.pairCheck`). libnice reports them only in its debug log, so this turns
    /// that log on for the process while such a transport is open (`NiceDebugTap`): for
    /// debugging tools (`tern call`, `tern peer`, `tern ice`), not for a server with many calls.
    public var tracePairChecks: Bool = false

    /// Defaults: no servers, policy `all`, UDP only, 5 ms pacing, consent freshness on.
    public init() {}

    /// The STUN server libnice will use (the first `stun:` entry).
    var stunServer: ICEServer? { servers.first { $0.kind == .stun } }
    /// Every TURN server.
    var turnServers: [ICEServer] { servers.filter { $0.kind != .stun } }
}

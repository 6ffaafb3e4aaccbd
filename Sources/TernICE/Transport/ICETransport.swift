public import TernSDP
public import TernCore
internal import CNice
import Logging
import Synchronization

/// One ICE transport (W3C/ORTC `RTCIceGatherer` + `RTCIceTransport`): a libnice agent in
/// RFC 5245/8445 full mode, one stream, one component (rtcp-mux + BUNDLE).
///
/// Life cycle: `init` → `gather()` → signal `localCredentials` and each `.candidate`
/// event → `setRemoteCredentials` / `addRemoteCandidate` / `addRemoteEndOfCandidates`
/// → `.stateChanged(.connected)` → `send` / receive handler → `close()`.
///
/// Threading: every method may be called from any thread. libnice runs on the
/// transport's `GLibEventLoop` thread; the receive handler runs there too (it must not
/// block). Events arrive in order on `events`.
public final class ICETransport: DatagramTransport, @unchecked Sendable {
    // Everything mutable is in `state` (Mutex); `agent`, `streamID`, `configuration`
    // are immutable; `receiveHandler` and `sendGate` have their own Mutex.
    struct State {
        var transportState: ICETransportState = .new
        var gatheringState: ICEGatheringState = .new
        var selectedPair: ICECandidatePair?
        /// Whether DTLS records ride in connectivity checks (ICETransport+DTLSInChecks.swift).
        var carriesDTLSInChecks = false
        /// The pair data first left on before selection (`ICEEvent.validPairFound`).
        var validPair: ICECandidatePair?
        var localCandidates: [ICECandidate] = []
        var trace = ICETrace()
        var remoteEndOfCandidates = false
        var pendingMDNS = 0
        /// Remote `.local` candidates resolution was started for (`maximumMDNSCandidates`).
        var mdnsResolutionsStarted = 0
        var remoteCandidatesDropped = 0
        var endOfCandidatesAfterMDNS = false
        var restarting = false
        var failureReason: String?
        /// Bumped on every W3C state change; a pending consent timer fires only if unchanged.
        var stateGeneration = 0
        var remoteCandidateCount = 0
        var closed = false
        var signalHandlers: [gulong] = []
        var callbackContext: Unmanaged<NiceCallbackContext>?
        /// The peer's current ufrag/password (its password keys the RTT probes).
        var remoteCredentials: ICECredentials?
        /// Round-trip time of the selected pair, measured with our own probes (ICETransport+RTT.swift).
        var rtt = PairRTTProbe()
        var rttTimerRunning = false
        /// SO_RCVBUF of the selected pair's socket after `enlargeSelectedSocketBuffers`, as the
        /// kernel reports it (twice what was asked: it counts its own bookkeeping).
        var selectedSocketReceiveBuffer: Int?
        /// See `selectedPathMaximumDatagramSize` (ICETransport+PathMTU.swift).
        var selectedPathMaximumDatagram: Int?
        /// The state a silence interrupted (restored when packets come again).
        var stateBeforeSilence: ICETransportState?
        /// libnice reported consent lost; only an ICE restart or its grace timer ends that.
        var consentLost = false
        /// Controlling or controlled, as last set (see `setRole`).
        var role: ICERole
    }

    let state: Mutex<State>
    /// The receive handler in a class: a closure stored directly in a `Mutex`
    /// (`Mutex<(@Sendable ([UInt8]) -> Void)?>`) gets wrapped in two more reabstraction thunks
    /// by every `withLock { $0 }` (Swift 6.3: the generic `inout` is converted in and back out),
    /// so with one read per datagram the wrapping grows with every packet and each call is
    /// slower than the last (as for `DriverTimer`'s handler).
    let receiveHandler = Mutex<ReceiveHandler?>(nil)
    /// Open while sends may reach the agent; closed (under the lock) before teardown.
    let sendGate = Mutex(true)
    /// When the last datagram arrived (nanoseconds of `clock`), and whether the selected pair is
    /// currently reported `disconnected` for silence (ICETransport+Liveness.swift). Atomics: the
    /// receive path touches them for every datagram.
    let lastInboundNanoseconds = Atomic<Int64>(0)
    /// `traffic`'s counters (atomics: every datagram touches them, on either thread).
    let packetsSent = Atomic<UInt64>(0), bytesSent = Atomic<UInt64>(0)
    let packetsReceived = Atomic<UInt64>(0), bytesReceived = Atomic<UInt64>(0)
    let silent = Atomic<Bool>(false)
    let agent: NiceAgentHandle
    let streamID: guint
    static let componentID: guint = 1
    let continuation: AsyncStream<ICEEvent>.Continuation
    let clock: any MonotonicClock
    /// Check-list lines from libnice's debug log (`ICEConfiguration.tracePairChecks`).
    let pairCheckLog: PairCheckLog?
    let logger = TernLog.logger("ice")
    /// Where one-shot mDNS queries go (the mDNS group; tests use a fake responder).
    let mdnsDestinationBox = Mutex(MDNSResolver.Destination())
    var mdnsDestination: MDNSResolver.Destination { mdnsDestinationBox.withLock { $0 } }

    /// The configuration this transport was created with.
    public let configuration: ICEConfiguration
    /// Whether data can leave on a valid pair before one is selected: asked for
    /// (`ICEConfiguration.sendsOnValidPairs`) and libnice has Tern's patch (Scripts/libnice).
    public let sendsOnValidPairs: Bool
    /// Controlling or controlled (RFC 8445 §6.1.1): set at creation, changed by `setRole`.
    public var role: ICERole { state.withLock { $0.role } }
    /// Events in the order they happened (one consumer); finishes after `.stateChanged(.closed)`.
    public let events: AsyncStream<ICEEvent>
    /// The largest datagram `send` accepts (`ICEConfiguration.maximumDatagramSize`).
    public var maximumDatagramSize: Int { configuration.maximumDatagramSize }

    /// Creates the agent on `loop` (a new `GLibEventLoop` when nil). Server host names are
    /// resolved here, blocking, with the system resolver, and a local TLS bridge is started on
    /// the loop for each `turns:` server (Docs/ICE.md, "TURN over TLS").
    public init(configuration: ICEConfiguration = ICEConfiguration(), role: ICERole,
                loop: GLibEventLoop? = nil, clock: any MonotonicClock = SystemClock()) throws(ICEError) {
        self.configuration = configuration
        state = Mutex(State(role: role))
        self.clock = clock
        pairCheckLog = configuration.tracePairChecks ? PairCheckLog(clock: clock) : nil
        let resolved = try Self.resolveServers(configuration.servers)
        let loop = loop ?? GLibEventLoop(name: "tern.ice.\(role.rawValue)")
        let bridges = try Self.startTLSBridges(configured: configuration.servers, resolved: resolved,
                                               options: configuration.turnTLS, loop: loop)
        let servers = Self.agentServers(resolved, bridges: bridges)
        var options = NICE_AGENT_OPTION_ICE_TRICKLE.rawValue
        if configuration.nomination == .regular { options |= NICE_AGENT_OPTION_REGULAR_NOMINATION.rawValue }
        if configuration.consentFreshness { options |= NICE_AGENT_OPTION_CONSENT_FRESHNESS.rawValue }
        guard let raw = nice_agent_new_full(loop.context, NICE_COMPATIBILITY_RFC5245, NiceAgentOption(rawValue: options))
        else { throw .agentCreationFailed(reason: "nice_agent_new_full returned NULL") }
        agent = NiceAgentHandle(pointer: raw, loop: loop, bridges: bridges)
        try Self.configure(agent, configuration, role: role)
        sendsOnValidPairs = configuration.sendsOnValidPairs && Self.libniceHasTernPatch
        let stream = nice_agent_add_stream(raw, 1)
        guard stream != 0 else { throw .agentCreationFailed(reason: "nice_agent_add_stream failed") }
        streamID = stream
        try Self.configureStream(agent, stream: stream, configuration, servers: servers)
        (events, continuation) = AsyncStream.makeStream(of: ICEEvent.self, bufferingPolicy: .unbounded)
        connectCallbacks()
        connectTLSBridges()
    }

    deinit {
        shutDown(emitEvents: false)
    }

    // MARK: Public state

    /// The current W3C transport state.
    public var transportState: ICETransportState { state.withLock { $0.transportState } }
    /// The current gathering state.
    public var gatheringState: ICEGatheringState { state.withLock { $0.gatheringState } }
    /// The pair carrying data, once one is selected, with its round-trip time statistics so far
    /// (`roundTripTime`, `totalRoundTripTime`, `requestsSent`, `responsesReceived`; see
    /// `ICEConfiguration.roundTripProbeInterval`).
    public var selectedPair: ICECandidatePair? {
        state.withLock { s in
            guard var pair = s.selectedPair else { return nil }
            pair.roundTripTime = s.rtt.currentRoundTripTime
            pair.totalRoundTripTime = s.rtt.totalRoundTripTime
            pair.requestsSent = s.rtt.requestsSent
            pair.responsesReceived = s.rtt.responsesReceived
            return pair
        }
    }
    /// What the transport carried for the layers above it so far (`DatagramTraffic`).
    public var traffic: DatagramTraffic {
        let inChecks = receivedInChecks
        let packets = packetsReceived.load(ordering: .relaxed), bytes = bytesReceived.load(ordering: .relaxed)
        return DatagramTraffic(packetsSent: packetsSent.load(ordering: .relaxed), bytesSent: bytesSent.load(ordering: .relaxed),
                               packetsReceived: packets - min(packets, inChecks.payloads),
                               bytesReceived: bytes - min(bytes, inChecks.bytes))
    }
    /// Every local candidate gathered so far (including ones `policy` keeps from signalling).
    public var localCandidates: [ICECandidate] { state.withLock { $0.localCandidates } }
    /// Why the transport is `failed` (nil otherwise). libnice does not report a cause, so this
    /// is inferred from what happened before: no remote candidates, checks failing before any
    /// pair worked (unreachable peer or wrong credentials), or loss after connecting (consent).
    public var failureReason: String? { state.withLock { $0.failureReason } }
    /// The trace so far (with the check list's narration when `configuration.tracePairChecks`).
    public var trace: ICETrace {
        let own = state.withLock { $0.trace }
        guard let pairCheckLog else { return own }
        let (checks, dropped) = pairCheckLog.snapshot
        var merged = own.merging(checks)
        if dropped > 0 {
            merged.record(.checkListNote(note: "\(dropped) later check-list lines not kept"), at: clock.now())
        }
        return merged
    }

    /// Our ufrag and password, to signal to the peer (they change on `restart()`).
    public var localCredentials: ICECredentials {
        let agent = self.agent, stream = streamID
        // On the loop thread like every other agent call (see NiceCallbacks.swift); after the
        // loop stopped nothing else can run, so reading directly is safe.
        let read = { () -> ICECredentials in
            var ufrag: UnsafeMutablePointer<gchar>?
            var pwd: UnsafeMutablePointer<gchar>?
            guard nice_agent_get_local_credentials(agent.pointer, stream, &ufrag, &pwd) != 0,
                  let ufrag, let pwd else { return ICECredentials(ufrag: "", pwd: "") }
            defer { g_free(ufrag); g_free(pwd) }
            return ICECredentials(ufrag: String(cString: ufrag), pwd: String(cString: pwd))
        }
        return agent.loop.sync(read) ?? read()
    }

    // MARK: Helpers used by the extensions

    /// Runs `body` on the loop thread (inline when already there).
    func onLoop<T>(_ body: () -> T) throws(ICEError) -> T {
        guard let result = agent.loop.sync(body) else { throw .closed }
        return result
    }

    /// Records `event` in the trace (caller holds the state lock through `inout`).
    func record(_ event: ICETrace.Event, in s: inout State) {
        s.trace.record(event, at: clock.now())
    }

    func emit(_ event: ICEEvent) {
        continuation.yield(event)
    }
}

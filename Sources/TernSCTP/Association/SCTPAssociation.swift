internal import DequeModule
public import TernCore

/// A sans-I/O SCTP association (RFC 9260 subset for WebRTC, carried over DTLS per RFC 8841).
///
/// Feed it the SCTP packets that arrive (the DTLS application data) with `handle(packet:now:)`,
/// call `handleTimeout(now:)` when `nextTimeout` passes, send what `pollTransmit(now:)` returns,
/// and drain `pollEvent()`. Nothing here reads a clock, sleeps or does I/O.
///
/// Supported: INIT/INIT ACK/COOKIE ECHO/COOKIE ACK with an HMAC-signed cookie, simultaneous
/// open (§5.2.1), restart (§5.2.4 A), ABORT, SHUTDOWN, ERROR, HEARTBEAT; DATA with
/// fragmentation, ordered/unordered delivery, SACK with gap blocks and duplicate TSNs,
/// delayed SACK (every 2nd packet or `delayedAckTimeout`), fast retransmit/recovery,
/// RTO per RFC 6298 with Karn's rule, slow start/congestion avoidance, receiver window;
/// PR-SCTP FORWARD TSN (RFC 3758); outgoing SSN reset (RFC 6525).
public final class SCTPAssociation {
    /// The configuration given at creation.
    public let config: SCTPAssociationConfig
    /// The current RFC 9260 §4 state.
    public internal(set) var state: SCTPAssociationState = .closed
    /// Set once the association closed after having started; it never reopens.
    public internal(set) var terminated = false

    var random: SeededRandom
    let cookieKey: [UInt8]

    // Tags and TSNs.
    var localTag: UInt32
    var peerTag: UInt32 = 0
    var localInitialTSN: UInt32
    var nextTSN: UInt32
    var cumulativeAckPoint: UInt32
    var peerSupportsForwardTSN = false
    var peerSupportsReconfig = false
    /// Negotiated outbound stream count.
    public internal(set) var outboundStreamCount = 0
    /// Negotiated inbound stream count.
    public internal(set) var inboundStreamCount = 0

    // Receive side.
    var received = ReceivedTSNTracker(peerInitialTSN: 0)
    var reassembly: ReassemblyQueue
    var duplicateTSNs: [UInt32] = []
    /// When fragments held past a cumulative TSN that has not moved are dropped
    /// (`config.staleFragmentTimeout`).
    var staleFragmentDeadline: Instant?
    var sackNeeded = false
    var sackImmediately = false
    var packetsSinceSack = 0
    /// Bytes of `.message` events not yet polled.
    var undeliveredBytes = 0
    /// a_rwnd in the last SACK sent, to send a window update when it opens (§6.2).
    var lastAdvertisedWindow = Int.max

    // Send side.
    var sendQueue = SendQueue()
    var outstanding = Deque<OutstandingChunk>()
    var nextMessageID: UInt64 = 0
    var nextSSN: [UInt16: UInt16] = [:]
    var queuedBytes = 0
    var streamBuffered: [UInt16: Int] = [:]
    var lowThreshold: [UInt16: Int] = [:]
    var flightSize = 0
    var cwnd: Int
    var ssthresh: Int
    var partialBytesAcked = 0
    var peerReceiverWindow = 0
    var inFastRecovery = false
    /// The last attempt to send new data stopped at cwnd (not for lack of data).
    var cwndLimited = false
    /// Packets with DATA that may still go out before the next received packet or timer
    /// (Max.Burst, RFC 9260 §6.1 D).
    var burstAllowance = 0
    var pacer = Pacer()
    /// The most DATA may use, bytes per second, when the association shares its path with
    /// other traffic under one congestion controller (a peer connection's media: `LinkShare`
    /// in TernRTP). Nil: only the association's own congestion control and pacing limit it.
    /// Retransmissions count against it; control chunks (SACKs) do not wait for it.
    public var sendRateLimit: Double? {
        didSet {
            if let limit = sendRateLimit, !(limit > 0) { sendRateLimit = 1 }
        }
    }
    var fastRecoveryExit: UInt32 = 0
    var fastRetransmitPending = false
    /// Number of outstanding chunks marked `needsRetransmit` (skips scanning when zero).
    var pendingRetransmits = 0
    var forwardTSNPending = false
    /// Outstanding chunks acknowledged by a gap block (so "is anything unacknowledged" is O(1)).
    var gapAckedCount = 0
    /// Slow-start exit on rising RTT (RFC 9406).
    var hyStart = HyStart()
    /// Packet size discovery (RFC 8899).
    var pathMTU: PathMTUSearch
    var rto: RTOEstimator
    var rttProbe: (tsn: UInt32, sent: Instant)?
    var errorCount = 0

    // Control.
    var controlChunks = Deque<SCTPChunk>()
    var rawPackets = Deque<[UInt8]>()
    var events = Deque<SCTPAssociationEvent>()
    var pendingInit: InitChunk?
    var pendingCookie: [UInt8]?
    /// The COOKIE ECHO is due in the next packet, with the DATA already queued behind it.
    var cookieEchoDue = false
    var initRetransmissions = 0
    /// Stale Cookie ERRORs answered by starting over, in the handshake under way (§5.2.6).
    var staleCookieRestartsThisHandshake = 0

    // Timers (RFC 9260 §6.3, §8.3, §5.1).
    var t1Deadline: Instant?
    var t2Deadline: Instant?
    var t3Deadline: Instant?
    var delayedAckDeadline: Instant?
    var heartbeatDeadline: Instant?
    var heartbeatAckDeadline: Instant?
    var reconfigDeadline: Instant?
    var lastActivity: Instant = .zero

    // Stream reset (RFC 6525).
    var pendingResetStreams: [UInt16] = []
    var outstandingReset: OutgoingSSNResetRequest?
    var nextReconfigRequestSequence: UInt32 = 0
    var peerNextReconfigRequestSequence: UInt32 = 0
    var lastReconfigResponse: ReconfigResponse?
    var deferredIncomingReset: OutgoingSSNResetRequest?

    /// Receive buffer actually advertised: `receiveWindow`, raised to `maxMessageSize + receiveWindow / 2`
    /// when messages may be larger, because without partial delivery a whole message must fit in
    /// the buffer while it is reassembled (otherwise a big message would trickle one chunk per RTT).
    public var receiveBufferSize: Int { Self.receiveBufferSize(config) }

    static func receiveBufferSize(_ config: SCTPAssociationConfig) -> Int {
        max(config.receiveWindow, config.maxMessageSize + config.receiveWindow / 2)
    }

    /// Whether the association came up from INITs exchanged in SDP (SNAP), with no handshake.
    public internal(set) var establishedWithoutHandshake = false

    /// Counters of dropped input, for diagnostics and tests.
    public internal(set) var stats = SCTPAssociationStats()

    /// Creates a closed association. Call `connect(now:)` to send INIT, or wait for the peer's
    /// (WebRTC endpoints usually both connect: the collision is handled per RFC 9260 §5.2.1).
    /// `localInit` (from `makeInit`, already described in SDP) fixes the Initiate Tag and
    /// Initial TSN; else they are drawn here.
    public convenience init(config: SCTPAssociationConfig = SCTPAssociationConfig(), localInit: InitChunk?) {
        self.init(config: config)
        guard let localInit else { return }
        localTag = localInit.initiateTag
        localInitialTSN = localInit.initialTSN
        nextTSN = localInitialTSN
        cumulativeAckPoint = localInitialTSN &- 1
        nextReconfigRequestSequence = localInitialTSN
    }

    public init(config: SCTPAssociationConfig = SCTPAssociationConfig()) {
        self.config = config
        var seedSource = SystemRandomNumberGenerator()
        random = SeededRandom(seed: config.randomSeed ?? seedSource.next())
        cookieKey = (0..<32).map { _ in UInt8.random(in: 0...255, using: &seedSource) }
        localTag = UInt32.random(in: 1...UInt32.max, using: &random)
        localInitialTSN = UInt32.random(in: 0...UInt32.max, using: &random)
        nextTSN = localInitialTSN
        cumulativeAckPoint = localInitialTSN &- 1
        let initial = config.initialCongestionWindow ?? min(4 * config.mtu, max(2 * config.mtu, 4380))
        cwnd = initial
        ssthresh = Int(Int32.max)
        rto = RTOEstimator(initial: config.rtoInitial, minimum: config.rtoMin, maximum: config.rtoMax)
        pathMTU = PathMTUSearch(basePacketSize: config.mtu, maximumPacketSize: config.maximumPacketSize,
                                probeTimeout: config.pathMTUProbeTimeout)
        reassembly = ReassemblyQueue(maxMessageSize: config.maxMessageSize)
        nextReconfigRequestSequence = localInitialTSN
    }

    /// The next event, if any.
    ///
    /// Received messages count against the advertised receive window until they are taken here,
    /// so an application that stops polling slows the peer down instead of growing memory.
    public func pollEvent() -> SCTPAssociationEvent? {
        let event = events.popFirst()
        if case let .message(m)? = event { undeliveredBytes -= m.payload.count }
        return event
    }

    /// Bytes of received messages the layer above has taken from `pollEvent()` but not yet handed
    /// to the application; counted against the advertised window (RFC 9260 §6.2 flow control).
    /// `DataChannelEndpoint` keeps it up to date; after lowering it, call `pollTransmit` so a
    /// window update can go out.
    public var applicationBacklogBytes = 0

    /// The most bytes the peer may have in flight towards us, whatever our buffer could hold:
    /// set by the layer below from how much its socket can queue (nil: no limit). a_rwnd
    /// bounds the peer's flight, and the flight includes what waits in our kernel socket, so
    /// advertising more than the socket holds invites the peer to overflow it whenever we fall
    /// behind, and each datagram the socket drops is DATA to resend and a congestion-window cut.
    public var arrivalWindowLimit: Int?

    /// Receive buffer space currently free, as advertised in a_rwnd (at most `arrivalWindowLimit`).
    public var advertisedReceiveWindow: Int {
        let free = max(0, receiveBufferSize - reassembly.bufferedBytes - undeliveredBytes - applicationBacklogBytes)
        guard let limit = arrivalWindowLimit else { return free }
        return min(free, limit)
    }

    /// When `handleTimeout(now:)` must next be called; nil when no timer runs.
    public var nextTimeout: Instant? {
        let retransmission = Instant.earliest(.earliest(t1Deadline, t2Deadline), t3Deadline)
        let acknowledgement = Instant.earliest(delayedAckDeadline, .earliest(heartbeatDeadline, heartbeatAckDeadline))
        let other = Instant.earliest(.earliest(reconfigDeadline, pathMTU.probeDeadline),
                                     .earliest(pacingRelease, staleFragmentDeadline))
        return .earliest(retransmission, .earliest(acknowledgement, other))
    }

    /// The pacing rate, bytes per second: the window spread over a smoothed round trip, with
    /// the gain of the current phase (`Pacer`), and never above `sendRateLimit`. Nil (unpaced)
    /// when neither applies: no RTT measured yet or `config.pacing` off, and no limit set.
    var pacingRate: Double? {
        var windowRate: Double?
        if config.pacing, let srtt = rto.srtt, srtt > .zero {
            let gain = cwnd <= ssthresh ? Pacer.slowStartGain : Pacer.congestionAvoidanceGain
            windowRate = gain * Double(cwnd) / (Double(srtt.nanoseconds) / 1e9)
        }
        guard let sendRateLimit else { return windowRate }
        return min(windowRate ?? sendRateLimit, sendRateLimit)
    }

    /// When pacing next lets DATA out, if DATA waits only for it. Under a `sendRateLimit` the
    /// bucket refills with time alone, so an empty flight waits for it too.
    private var pacingRelease: Instant? {
        guard let rate = pacingRate, flightSize > 0 || sendRateLimit != nil, flightSize < cwnd,
              !sendQueue.isEmpty || pendingRetransmits > 0,
              state == .established || state == .shutdownPending || state == .shutdownReceived else { return nil }
        return pacer.nextRelease(bytesPerSecond: rate)
    }

    /// Bytes queued on `streamIdentifier` and not yet sent once (W3C `bufferedAmount`).
    public func bufferedAmount(streamIdentifier: UInt16) -> Int { streamBuffered[streamIdentifier] ?? 0 }

    /// Whether messages wait that have not been sent once (W3C `bufferedAmount` above zero on
    /// some channel).
    public var hasUnsentData: Bool { !sendQueue.isEmpty }

    /// Bytes queued on all streams and not yet acknowledged.
    public var totalQueuedBytes: Int { queuedBytes }

    /// Sets the threshold under which `bufferedAmountLow` is reported for a stream.
    public func setBufferedAmountLowThreshold(_ bytes: Int, streamIdentifier: UInt16) {
        lowThreshold[streamIdentifier] = bytes
    }

    /// Incoming messages discarded because they exceeded `config.maxMessageSize`.
    public var oversizeMessagesDiscarded: Int { reassembly.oversizeDiscarded }

    /// Current congestion window, in bytes (for diagnostics).
    public var congestionWindow: Int { cwnd }

    /// The largest SCTP packet sent now: `config.mtu` until DPLPMTUD confirms a larger one.
    public var packetSize: Int { pathMTU.packetSize }

    /// Tells packet-size discovery how large an SCTP packet the path's first hop takes (from the
    /// local route's MTU, by the layer below), or nil when unknown. Larger sizes are not probed.
    public func setPathPacketLimit(_ limit: Int?) {
        pathMTU.pathLimitChanged(to: limit, searching: config.pathMTUDiscovery && state == .established)
    }

    /// Current retransmission timeout.
    public var retransmissionTimeout: Duration { rto.rto }

    /// Queues a user message on a stream.
    ///
    /// Messages may be queued while the handshake is in progress; they are sent once established.
    /// The payload is fragmented into DATA chunks without copying until serialization.
    public func send(_ payload: [UInt8], streamIdentifier: UInt16, payloadProtocolIdentifier: UInt32,
                     options: SCTPSendOptions = SCTPSendOptions(), now: Instant) throws(SCTPSendError) {
        switch state {
        case .shutdownPending, .shutdownSent, .shutdownReceived, .shutdownAckSent:
            throw .notSendable(state: state)
        default:
            if terminated { throw .notSendable(state: state) }
        }
        guard !payload.isEmpty else { throw .emptyMessage }
        if state == .established, Int(streamIdentifier) >= outboundStreamCount {
            throw .invalidStream(streamIdentifier, streamCount: outboundStreamCount)
        }
        guard queuedBytes + payload.count <= config.sendBufferSize else {
            throw .sendBufferFull(message: payload.count, queued: queuedBytes, limit: config.sendBufferSize)
        }
        let message = OutboundMessage(id: nextMessageID, streamIdentifier: streamIdentifier,
                                      payloadProtocolIdentifier: payloadProtocolIdentifier, payload: payload,
                                      options: options, expiry: options.lifetime.map { now + $0 })
        nextMessageID &+= 1
        sendQueue.append(message)
        queuedBytes += payload.count
        streamBuffered[streamIdentifier, default: 0] += payload.count
    }

    /// Sends ABORT with a user-initiated-abort cause and closes at once (RFC 9260 §9.1).
    public func abort(reason: String, now: Instant) {
        guard !terminated else { return }
        if peerTag != 0 {
            let packet = SCTPPacket(sourcePort: config.localPort, destinationPort: config.remotePort,
                                    verificationTag: peerTag, chunks: [.abort(reflectsTag: false, causes: [.userAbort(reason)])])
            rawPackets.append(packet.serialize())
        }
        close(.localAbort(reason))
    }

    /// Starts the graceful SHUTDOWN sequence (RFC 9260 §9.2): queued data is sent first.
    public func shutdown(now: Instant) {
        switch state {
        case .established:
            state = .shutdownPending
            maybeSendShutdown(now: now)
        case .cookieWait, .cookieEchoed:
            close(.shutdown)
        default: break
        }
    }

    func close(_ reason: SCTPCloseReason) {
        guard !terminated else { return }
        terminated = true
        state = .closed
        pendingInit = nil
        pendingCookie = nil
        t1Deadline = nil; t2Deadline = nil; t3Deadline = nil; delayedAckDeadline = nil
        heartbeatDeadline = nil; heartbeatAckDeadline = nil; reconfigDeadline = nil
        sendQueue.removeAll()
        outstanding.removeAll()
        gapAckedCount = 0
        controlChunks.removeAll()
        events.append(.closed(reason))
    }

    func packetHeader(tag: UInt32? = nil) -> [UInt8] {
        SCTPPacket.header(sourcePort: config.localPort, destinationPort: config.remotePort,
                          verificationTag: tag ?? peerTag, capacity: pathMTU.packetSize + 4)
    }

    func sendRaw(_ chunks: [SCTPChunk], tag: UInt32) {
        var out = packetHeader(tag: tag)
        for c in chunks { c.write(into: &out) }
        SCTPPacket.finalize(&out)
        rawPackets.append(out)
    }
}

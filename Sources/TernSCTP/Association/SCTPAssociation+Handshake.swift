public import TernCore

/// Association setup (RFC 9260 §5.1, §5.2).
extension SCTPAssociation {
    /// The INIT this association sends (or, with SNAP, describes in SDP): its Initiate Tag and
    /// Initial TSN, the window and stream counts of `config`, the extensions it supports.
    public var localInit: InitChunk { Self.makeInit(config: config, initiateTag: localTag, initialTSN: localInitialTSN) }

    /// An INIT with a fresh random Initiate Tag and Initial TSN (RFC 9260 §5.1, §5.3.1), for a
    /// description to carry before the association exists (SNAP, draft-hancke-tsvwg-snap §5.2);
    /// pass it to `init(config:localInit:)` so the association uses the same values.
    public static func makeInit(config: SCTPAssociationConfig) -> InitChunk {
        var random = SystemRandomNumberGenerator()
        return makeInit(config: config, initiateTag: UInt32.random(in: 1...UInt32.max, using: &random),
                        initialTSN: UInt32.random(in: 0...UInt32.max, using: &random))
    }

    static func makeInit(config: SCTPAssociationConfig, initiateTag: UInt32, initialTSN: UInt32) -> InitChunk {
        InitChunk(initiateTag: initiateTag, advertisedReceiverWindowCredit: UInt32(clamping: receiveBufferSize(config)),
                  outboundStreams: config.outboundStreams, inboundStreams: config.inboundStreams,
                  initialTSN: initialTSN, parameters: localExtensionParameters())
    }

    /// SNAP (draft-hancke-tsvwg-snap §6): both INITs were exchanged in the descriptions, so the
    /// association is ESTABLISHED as DTLS is, and no INIT, INIT ACK, COOKIE ECHO or COOKIE ACK is
    /// sent. What RFC 9260 §5.1 steps A–E would have agreed comes from the two INITs: packets go
    /// out with the peer's Initiate Tag and come in with ours; each side's TSNs start at its
    /// Initial TSN; streams and extensions are what both announced.
    public func connect(peerInit: InitChunk, now: Instant) {
        guard state == .closed, !terminated else { return }
        adoptPeer(tag: peerInit.initiateTag, initialTSN: peerInit.initialTSN, window: peerInit.advertisedReceiverWindowCredit,
                  outbound: peerInit.outboundStreams, inbound: peerInit.inboundStreams,
                  forwardTSN: peerInit.supportsForwardTSN, reconfig: peerInit.supportsReconfig)
        establishedWithoutHandshake = true
        enterEstablished(now: now)
    }

    /// Sends INIT and enters COOKIE-WAIT (RFC 9260 §5.1 step A).
    public func connect(now: Instant) {
        guard state == .closed, !terminated else { return }
        let initChunk = localInit
        pendingInit = initChunk
        state = .cookieWait
        initRetransmissions = 0
        sendRaw([.initiation(initChunk)], tag: 0)
        t1Deadline = now + rto.rto
    }

    static func localExtensionParameters() -> [SCTPParameter] {
        [.supportedExtensions([SCTPChunk.Kind.forwardTSN, SCTPChunk.Kind.reconfig]), .forwardTSNSupported]
    }

    /// INIT received (§5.1 step B, §5.2.1 collision, §5.2.2 restart): answer with INIT ACK and a
    /// signed cookie; no state is kept. In COOKIE-WAIT/COOKIE-ECHOED we keep our own Initiate Tag.
    func handleInit(_ chunk: InitChunk, now: Instant) {
        let tag: UInt32
        let tsn: UInt32
        switch state {
        case .closed where !terminated, .cookieWait, .cookieEchoed:
            tag = localTag
            tsn = localInitialTSN
        case .established, .shutdownPending, .shutdownReceived, .shutdownSent:
            // Restart attempt: offer a new tag; the peer proves itself with COOKIE ECHO.
            tag = UInt32.random(in: 1...UInt32.max, using: &random)
            tsn = UInt32.random(in: 0...UInt32.max, using: &random)
        default:
            return
        }
        let cookie = StateCookie(created: now, localTag: tag, peerTag: chunk.initiateTag, localInitialTSN: tsn,
                                 peerInitialTSN: chunk.initialTSN,
                                 peerReceiverWindow: chunk.advertisedReceiverWindowCredit,
                                 peerOutboundStreams: chunk.outboundStreams, peerInboundStreams: chunk.inboundStreams,
                                 peerSupportsForwardTSN: chunk.supportsForwardTSN,
                                 peerSupportsReconfig: chunk.supportsReconfig)
        var params = Self.localExtensionParameters()
        params.insert(.stateCookie(cookie.encode(key: cookieKey)), at: 0)
        // RFC 9260 §3.2.1: report parameters whose upper bits ask for it.
        for case let .unknown(type, value) in chunk.parameters where type & 0x4000 != 0 {
            var raw: [UInt8] = []
            TLVList.write([(type, value)], into: &raw)
            params.append(.unrecognizedParameter(raw))
        }
        let ack = InitChunk(initiateTag: tag, advertisedReceiverWindowCredit: UInt32(clamping: receiveBufferSize),
                            outboundStreams: config.outboundStreams, inboundStreams: config.inboundStreams,
                            initialTSN: tsn, parameters: params)
        sendRaw([.initiationAck(ack)], tag: chunk.initiateTag)
    }

    /// INIT ACK received in COOKIE-WAIT (§5.1 step C): echo the cookie.
    func handleInitAck(_ chunk: InitChunk, now: Instant) {
        guard state == .cookieWait, let cookie = chunk.stateCookie else { return }
        adoptPeer(tag: chunk.initiateTag, initialTSN: chunk.initialTSN, window: chunk.advertisedReceiverWindowCredit,
                  outbound: chunk.outboundStreams, inbound: chunk.inboundStreams,
                  forwardTSN: chunk.supportsForwardTSN, reconfig: chunk.supportsReconfig)
        pendingCookie = cookie
        pendingInit = nil
        state = .cookieEchoed
        initRetransmissions = 0
        cookieEchoDue = true  // pollTransmit sends it, with queued DATA bundled (§5.1 step C)
        t1Deadline = now + rto.rto
    }

    /// COOKIE ECHO received (§5.1 step D, §5.2.4).
    /// Whether the cookie was ours and the packet carried its tag: when not, the rest of the
    /// packet is not processed either (§5.1.5: the packet is discarded), since a COOKIE ECHO is
    /// the one chunk that exempts its packet from the verification-tag check (§8.5.1).
    @discardableResult
    func handleCookieEcho(_ bytes: [UInt8], packetTag: UInt32, now: Instant) -> Bool {
        let cookie: StateCookie
        do throws(StateCookie.Rejection) {
            cookie = try StateCookie.decode(bytes, key: cookieKey, now: now, lifetime: config.cookieLifetime)
        } catch {
            // Forged, corrupted or expired: no association comes of it (§5.1.5). An expired one
            // of ours gets a Stale Cookie ERROR, so that the peer starts over instead of waiting.
            stats.rejectedCookies += 1
            if case let .stale(peerTag, staleness) = error {
                let microseconds = UInt32(clamping: staleness.components.seconds * 1_000_000
                                          + staleness.components.attoseconds / 1_000_000_000_000)
                var measure: [UInt8] = []
                measure.appendBE(microseconds)
                sendRaw([.error([SCTPErrorCause(code: SCTPErrorCause.staleCookie, value: measure)])], tag: peerTag)
            }
            return false
        }
        guard packetTag == cookie.localTag else {
            stats.badVerificationTag += 1
            return false
        }
        switch state {
        case .closed where !terminated, .cookieWait, .cookieEchoed:
            guard state == .closed || cookie.localTag == localTag else { return true }
            if state == .closed {
                localTag = cookie.localTag
                localInitialTSN = cookie.localInitialTSN
                nextTSN = localInitialTSN
                cumulativeAckPoint = localInitialTSN &- 1
                nextReconfigRequestSequence = localInitialTSN
            }
            // In COOKIE-WAIT/ECHOED the cookie holds the tag and TSN we already use (handleInit),
            // and DATA may have gone with our own COOKIE ECHO: the TSNs go on from there.
            adoptCookie(cookie)
            enterEstablished(now: now)
            controlChunks.append(.cookieAck)
        case .established, .shutdownPending, .shutdownReceived, .shutdownSent:
            if cookie.localTag == localTag, cookie.peerTag == peerTag {
                controlChunks.append(.cookieAck)  // §5.2.4 action D: duplicate.
            } else if cookie.localTag != localTag, cookie.peerTag != peerTag {
                restart(with: cookie, now: now)  // §5.2.4 action A: peer restarted.
                controlChunks.append(.cookieAck)
            }
        default:
            break
        }
        return true
    }

    /// A Stale Cookie ERROR while our COOKIE ECHO is outstanding (§5.2.6): our cookie expired
    /// before it arrived. Start the handshake over with a fresh INIT (not the optional Cookie
    /// Preservative: a new cookie after one more round trip is enough for WebRTC's use).
    /// Each restart counts against Max.Init.Retransmits, so a peer whose cookies always expire
    /// in flight (a lifetime shorter than the round trip) ends the attempt instead of looping.
    func handleStaleCookie(now: Instant) {
        guard state == .cookieEchoed else { return }
        staleCookieRestartsThisHandshake += 1
        guard staleCookieRestartsThisHandshake <= config.maxInitRetransmissions else {
            close(.handshakeTimeout)
            return
        }
        stats.staleCookieRestarts += 1
        pendingCookie = nil
        state = .closed
        connect(now: now)
    }

    /// COOKIE ACK received (§5.1 step E).
    func handleCookieAck(now: Instant) {
        guard state == .cookieEchoed else { return }
        pendingCookie = nil
        enterEstablished(now: now)
    }

    func adoptCookie(_ cookie: StateCookie) {
        adoptPeer(tag: cookie.peerTag, initialTSN: cookie.peerInitialTSN, window: cookie.peerReceiverWindow,
                  outbound: cookie.peerOutboundStreams, inbound: cookie.peerInboundStreams,
                  forwardTSN: cookie.peerSupportsForwardTSN, reconfig: cookie.peerSupportsReconfig)
    }

    func adoptPeer(tag: UInt32, initialTSN: UInt32, window: UInt32, outbound: UInt16, inbound: UInt16,
                   forwardTSN: Bool, reconfig: Bool) {
        peerTag = tag
        received = ReceivedTSNTracker(peerInitialTSN: initialTSN)
        peerNextReconfigRequestSequence = initialTSN
        peerReceiverWindow = Int(window)
        outboundStreamCount = Int(min(config.outboundStreams, inbound))
        inboundStreamCount = Int(min(config.inboundStreams, outbound))
        peerSupportsForwardTSN = forwardTSN
        peerSupportsReconfig = reconfig
    }

    func enterEstablished(now: Instant) {
        state = .established
        staleCookieRestartsThisHandshake = 0
        pendingInit = nil
        pendingCookie = nil
        t1Deadline = nil
        lastActivity = now
        heartbeatDeadline = now + config.heartbeatInterval
        cookieEchoDue = false
        // DATA bundled with the COOKIE ECHO was covered by T1 until now (§6.3.2 R1 from here).
        if !outstanding.isEmpty, t3Deadline == nil { t3Deadline = now + rto.rto }
        if config.pathMTUDiscovery { pathMTU.start() }
        events.append(.connected)
    }

    /// §5.2.4 action A: the peer restarted; start afresh with the cookie's parameters.
    func restart(with cookie: StateCookie, now: Instant) {
        localTag = cookie.localTag
        localInitialTSN = cookie.localInitialTSN
        nextTSN = localInitialTSN
        cumulativeAckPoint = localInitialTSN &- 1
        nextReconfigRequestSequence = localInitialTSN
        adoptCookie(cookie)
        reassembly = ReassemblyQueue(maxMessageSize: config.maxMessageSize)
        sendQueue.removeAll()
        outstanding.removeAll()
        gapAckedCount = 0
        pendingRetransmits = 0
        queuedBytes = 0
        streamBuffered = [:]
        nextSSN = [:]
        flightSize = 0
        cwnd = config.initialCongestionWindow ?? min(4 * config.mtu, max(2 * config.mtu, 4380))
        ssthresh = Int(Int32.max)
        hyStart = HyStart()
        partialBytesAcked = 0
        inFastRecovery = false
        t3Deadline = nil
        outstandingReset = nil
        pendingResetStreams = []
        deferredIncomingReset = nil
        errorCount = 0
        state = .established
        events.append(.restarted)
    }

    /// T1-init / T1-cookie expiry (§5.1, §6.3.3).
    func handleT1(now: Instant) {
        initRetransmissions += 1
        guard initRetransmissions <= config.maxInitRetransmissions else {
            close(.handshakeTimeout)
            return
        }
        rto.backOff()
        if state == .cookieWait, let i = pendingInit {
            sendRaw([.initiation(i)], tag: 0)
        } else if state == .cookieEchoed, pendingCookie != nil {
            cookieEchoDue = true  // resent by pollTransmit with the DATA that went with it
        } else {
            t1Deadline = nil
            return
        }
        t1Deadline = now + rto.rto
    }
}

public import TernCore
internal import COpenSSL

/// One DTLS 1.2 association (RFC 6347) with use_srtp (RFC 5764), sans-I/O: datagrams and
/// time go in, datagrams, events and the next deadline come out. Nothing here reads a clock,
/// opens a socket or starts a thread.
///
/// ```
/// let endpoint = try DTLSEndpoint(configuration: config)
/// endpoint.start(now: clock.now())                 // client: queues the ClientHello
/// endpoint.handle(datagram: bytes, now: clock.now())
/// endpoint.handleTimeout(now: clock.now())         // when now >= nextTimeout
/// while let datagram = endpoint.pollTransmit() { try transport.send(datagram) }
/// while let event = endpoint.pollEvent() { ... }
/// ```
///
/// Thread-safety: single owner. The class is not `Sendable`; every call must come from one
/// thread (or one actor/queue) at a time, which is what the OpenSSL `SSL` object requires.
public final class DTLSEndpoint {
    /// Where the association is.
    public enum State: String, Sendable {
        /// Created; a client waits for `start`, a server for the ClientHello.
        case new
        /// Handshake in progress.
        case connecting
        /// Handshake done, fingerprint verified.
        case connected
        /// close_notify sent or received.
        case closed
        /// Failed; see the `.failed` event.
        case failed
    }

    /// This endpoint's role.
    public let role: DTLSRole
    /// The current state.
    public internal(set) var state: State = .new
    /// What was negotiated, once connected.
    public internal(set) var connectionInfo: DTLSConnectionInfo?
    /// Counters.
    public internal(set) var statistics = DTLSStatistics()

    let configuration: DTLSConfiguration
    let io: EndpointIO
    let context: OpaquePointer  // SSL_CTX *
    let ssl: OpaquePointer  // SSL *
    /// Where `SSL_read` decrypts each record: allocated once (allocating and zeroing 18 KiB
    /// per datagram is a visible share of the receive path); each record is copied out at its size.
    var readBuffer = [UInt8](repeating: 0, count: 16_384 + 2_048)

    /// Creates the OpenSSL context and connection. Throws when no remote fingerprint is
    /// configured (fail closed) or OpenSSL refuses the configuration.
    public init(configuration: DTLSConfiguration) throws(DTLSError) {
        guard !configuration.remoteFingerprints.isEmpty else { throw .missingRemoteFingerprint }
        self.configuration = configuration
        self.role = configuration.role
        self.io = EndpointIO(
            timer: DTLSTimer(initial: configuration.initialRetransmissionTimeout,
                             maximum: configuration.maximumRetransmissionTimeout,
                             followsCallerClock: configuration.retransmitsOnCallerClockForTesting),
            remoteFingerprints: configuration.remoteFingerprints)
        OpenSSLErrorQueue.clear()
        let context = try DTLSContextCache.context(srtpProfiles: configuration.srtpProfiles)
        guard let ssl = SSL_new(context) else {
            SSL_CTX_free(context)
            throw .openSSL(operation: "SSL_new", reason: OpenSSLErrorQueue.drain())
        }
        self.context = context
        self.ssl = ssl
        // From here on deinit frees both.
        try configureConnection()
    }

    deinit {
        SSL_free(ssl)  // frees both BIOs before `io` (their context) goes away
        SSL_CTX_free(context)
    }

    /// When the handshake must have completed (`DTLSConfiguration.handshakeTimeout` after it
    /// started), while connecting.
    private(set) var handshakeDeadline: Instant?
    /// A client's first flight as it went out, until the server's first datagram arrives.
    private var unansweredClientHello: [UInt8]?

    /// Starts the handshake. A client queues its ClientHello; a server only starts listening.
    public func start(now: Instant) {
        guard state == .new else { return }
        state = .connecting
        handshakeDeadline = now + configuration.handshakeTimeout
        if role == .client { driveHandshake(now: now) }
    }

    /// Feeds one received datagram (already demultiplexed as DTLS, RFC 7983).
    /// Malformed datagrams are counted in `statistics` and dropped.
    public func handle(datagram: [UInt8], now: Instant) {
        switch state {
        case .closed, .failed:
            statistics.datagramsDroppedInWrongState += 1
            return
        case .new where role == .client:
            statistics.datagramsDroppedInWrongState += 1
            return
        default: break
        }
        guard DTLSRecordFraming.isWellFormed(datagram, from: role.peer) else {
            statistics.malformedDatagramsDropped += 1
            return
        }
        statistics.datagramsReceived += 1
        unansweredClientHello = nil
        if state == .new {
            state = .connecting
            handshakeDeadline = now + configuration.handshakeTimeout
        }
        io.inbox.append(datagram)
        if state == .connecting { driveHandshake(now: now) } else { readApplicationData(now: now) }
        io.inbox.removeAll()
        updateTimer(now: now)
    }

    /// When the retransmission timer fires next (RFC 6347 §4.2.4) or the handshake deadline
    /// passes, or nil.
    public var nextTimeout: Instant? {
        switch state {
        case .connecting: .earliest(io.timer.deadline, handshakeDeadline)
        case .connected: io.timer.deadline
        default: nil
        }
    }

    /// Retransmits the current flight when `now` has reached its timer; fails the handshake once
    /// `now` reaches its deadline (a peer that answers just often enough to keep retransmissions
    /// going cannot hold the association's memory for ever).
    public func handleTimeout(now: Instant) {
        if state == .connecting, let handshakeDeadline, now >= handshakeDeadline {
            return fail(.handshakeDeadlineExceeded(milliseconds: configuration.handshakeTimeout.nanoseconds / 1_000_000))
        }
        guard state == .connecting || state == .connected,
              let deadline = io.timer.deadline, now >= deadline else { return }
        _ = io.timer.expireOpenSSLTimer()
        OpenSSLErrorQueue.clear()
        let result = tern_DTLSv1_handle_timeout(ssl)
        if result < 0 {
            fail(handshakeError())
        } else if result > 0 {
            statistics.retransmissionTimeouts += 1
        }
        updateTimer(now: now)
    }

    /// The most application data one record can carry without exceeding
    /// `maximumDatagramSize` under the negotiated cipher (`DTLS_get_data_mtu`), once connected.
    /// Larger records are still sent (up to 16 KiB) but need IP fragmentation.
    public var maximumApplicationDataSize: Int? {
        guard state == .connected else { return nil }
        let size = DTLS_get_data_mtu(ssl)
        return size > 0 ? size : nil
    }

    /// The most application data one record carries (RFC 6347 §4.1: 2^14 bytes); also the most
    /// this endpoint reads whole from one record.
    public static let maximumRecordPlaintext = 16_384

    /// Bytes a DTLS 1.2 record adds to its plaintext with the suites Tern offers, at most: 13 of
    /// header, and for AES-GCM 8 of explicit nonce and 16 of tag (ChaCha20-Poly1305 adds 16).
    public static let maximumRecordOverhead = 13 + 8 + 16

    /// Sends one application data record (RFC 6347 §4.1; SCTP rides on these, RFC 8261).
    /// Keep it within `maximumApplicationDataSize` so the record fits one datagram.
    public func send(applicationData: [UInt8]) throws(DTLSError) {
        switch state {
        case .connected: break
        case .new, .connecting: throw .notConnected
        case .closed, .failed: throw .closed
        }
        let limit = Self.maximumRecordPlaintext
        guard applicationData.count <= limit else { throw .messageTooLarge(size: applicationData.count, limit: limit) }
        guard !applicationData.isEmpty else { return }
        OpenSSLErrorQueue.clear()
        let written = applicationData.withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32($0.count)) }
        guard written == Int32(applicationData.count) else {
            throw .openSSL(operation: "SSL_write", reason: OpenSSLErrorQueue.drain())
        }
        statistics.applicationRecordsSent += 1
    }

    /// Sends close_notify (RFC 5246 §7.2.1) and stops the association.
    public func close(now: Instant) {
        guard state == .connected || state == .connecting else { return }
        if state == .connected { _ = SSL_shutdown(ssl) }
        state = .closed
        updateTimer(now: now)
    }

    /// The next datagram to send, oldest first.
    ///
    /// Handshake records are packed together, up to `maximumDatagramSize` (RFC 6347 §4.1.1
    /// allows several records per datagram): OpenSSL sends a first flight whole, but
    /// retransmits it one message per datagram, and a five-datagram flight at 30 % loss arrives
    /// complete only 17 % of the time (0.7⁵): on a lossy path the handshake may never finish.
    /// Application data stays one record per datagram: some stacks read only a datagram's first
    /// record (aiortc).
    public func pollTransmit() -> [UInt8]? {
        guard !io.outbox.isEmpty else { return nil }
        var datagram = io.outbox.removeFirst()
        if datagram.first != DTLSRecordFraming.applicationDataType {
            while let next = io.outbox.first, next.first != DTLSRecordFraming.applicationDataType,
                  datagram.count + next.count <= configuration.maximumDatagramSize {
                datagram += io.outbox.removeFirst()
            }
        }
        statistics.datagramsSent += 1
        if role == .client, state == .connecting, statistics.datagramsReceived == 0,
           statistics.clientHelloRepeats == 0, datagram.first != DTLSRecordFraming.applicationDataType {
            unansweredClientHello = datagram
        }
        return datagram
    }

    /// Queues the client's ClientHello again, the same bytes, if the server has not answered yet
    /// and it was not repeated before; returns whether it did.
    ///
    /// For a ClientHello sent on an ICE pair before nomination (RFC 8445 §12.1): some peers drop
    /// data until their own agent has selected a pair (Firefox's DTLS layer reads nothing before
    /// its ICE transport is open), which would leave the hello to the 100 ms retransmission
    /// timer. Sent again when the pair is selected, it reaches such a peer no later than it would
    /// have without the early start. A server that did get the first one discards the copy as a
    /// replayed record (RFC 6347 §4.1.2.6: same epoch and sequence number), so it answers once.
    public func repeatUnansweredClientHello() -> Bool {
        guard role == .client, state == .connecting, let hello = unansweredClientHello else { return false }
        unansweredClientHello = nil
        io.outbox.insert(hello, at: 0)
        statistics.clientHelloRepeats += 1
        return true
    }

    /// The next event, oldest first.
    public func pollEvent() -> DTLSEvent? { io.events.isEmpty ? nil : io.events.removeFirst() }

    /// Whether this OpenSSL lets `DTLSConfiguration.retransmitsOnCallerClockForTesting` drive
    /// retransmissions from the caller's `now` (OpenSSL 3.0.x). See `DTLSTimer`.
    public static var callerClockRetransmissionAvailable: Bool { DTLSTimer.callerClockAvailable }

    /// Whether this endpoint's retransmissions follow the caller's `now` rather than the system clock.
    public var retransmissionFollowsCallerClock: Bool { io.timer.followsCallerClock }
}

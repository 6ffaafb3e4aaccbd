import TernCore
import TernDTLS
import TernRTP
import TernSCTP

/// Everything above ICE for one bundled transport, sans-I/O: the DTLS association, the SRTP
/// sessions it keys, the SCTP association carried in its application data, and the RTP/RTCP
/// state of every media stream. Datagrams and `now` go in; datagrams and `TransportEvent`s
/// come out through `takeOutput()`.
///
/// Packets are told apart by their first byte (RFC 7983): DTLS records go to the DTLS
/// endpoint, RTP/RTCP to the SRTP sessions and media streams; STUN never reaches this far
/// (libnice consumes it).
///
/// Single owner: `TransportDriver` calls it under one lock. It reads no clock and starts no thread.
final class TransportCore {
    struct Parameters {
        var dtls: DTLSConfiguration
        /// Present when an application m-section was negotiated.
        var dataChannels: DataChannelParameters?
        var sctp: SCTPAssociationConfig
        /// Our INIT as the description offered it (SNAP), so the association uses its tag and TSN.
        var sctpInit: InitChunk?
        var tap: (@Sendable (TappedPacket) -> Void)?
        /// Received data-channel bytes the application may leave unread (`ReceiveBacklog`).
        var receiveBacklogLimit = 4 * 1024 * 1024
    }

    struct DataChannelParameters {
        var remoteMaxMessageSize: Int
        /// What the peer advertised it reads whole (`a=x-tern-sctp-max-packet`), if anything.
        var remoteMaxPacket: Int?
        /// The peer's INIT from its description, when both carried one (SNAP): no handshake.
        var remoteInit: InitChunk?
    }

    struct Output {
        var datagrams: [[UInt8]] = []
        var events: [TransportEvent] = []
    }

    let dtls: DTLSEndpoint
    let parameters: Parameters
    /// What the application has not read yet of the messages handed to it.
    let receiveBacklog: ReceiveBacklog
    private(set) var dtlsState: DTLSTransportState = .new
    /// The data-channel endpoint, when an application section was negotiated. It exists from
    /// the start so channels get their stream ids at once (even for the DTLS client, odd for
    /// the server, RFC 8832 §6); it connects when DTLS is up.
    private(set) var sctp: DataChannelEndpoint?
    private(set) var srtpOutbound: SRTPSession?
    private(set) var srtpInbound: SRTPSession?
    /// SRTP keys from the handshake, made into sessions at first use (`installPendingSRTP`):
    /// libsrtp's two sessions cost ~0.1 ms to create; created at `connected` they would hold
    /// back the handshake's last flight (the server's Finished), which leaves with this call's output.
    private var pendingSRTPKeying: (keying: SRTPKeyingMaterial, role: DTLSRole)?
    var media: MediaEngine
    var output = Output()
    /// Datagrams dropped before they reached a layer (unknown first byte, SRTP before keys).
    private(set) var droppedDatagrams = 0

    init(parameters: Parameters, media: MediaEngine) throws(DTLSError) {
        receiveBacklog = ReceiveBacklog(limit: parameters.receiveBacklogLimit)
        self.parameters = parameters
        self.dtls = try DTLSEndpoint(configuration: parameters.dtls)
        self.media = media
        self.sctp = parameters.dataChannels.map { channels in
            DataChannelEndpoint(role: parameters.dtls.role,
                                config: Self.sctpConfiguration(parameters.sctp, remoteMaxPacket: channels.remoteMaxPacket),
                                remoteMaxMessageSize: channels.remoteMaxMessageSize,
                                localInit: parameters.sctpInit, peerInit: channels.remoteInit)
        }
    }

    /// Starts the DTLS handshake (a client sends its ClientHello; a server starts listening).
    /// Called when ICE first reports a usable pair.
    func start(now: Instant) {
        guard dtls.state == .new else { return }
        dtls.start(now: now)
        setDTLSState(.connecting)
        drainDTLS(now: now)
    }

    /// ICE selected a pair after the handshake started on a valid one: a ClientHello still
    /// unanswered goes out again (`DTLSEndpoint.repeatUnansweredClientHello`).
    func pairSelectedDuringHandshake(now: Instant) {
        guard dtls.repeatUnansweredClientHello() else { return }
        drainDTLS(now: now)
    }

    /// Drops the SRTP state libsrtp made for SSRCs the media engine keeps nothing for.
    private func forgetRefusedStreams(in inbound: SRTPSession) {
        for ssrc in media.takeSSRCsToForget() { inbound.removeStream(ssrc: ssrc) }
    }

    /// One datagram from ICE.
    func handle(datagram: [UInt8], now: Instant) {
        switch DemultiplexedPacket(classifying: datagram) {
        case .dtls:
            if dtls.state == .new { setDTLSState(.connecting) }
            dtls.handle(datagram: datagram, now: now)
            drainDTLS(now: now)
        case .rtp:
            installPendingSRTP()
            guard let inbound = srtpInbound else { droppedDatagrams += 1; return }
            var packet = datagram
            guard inbound.unprotectRTP(&packet) == .ok else { return }  // counted by the session
            parameters.tap?(TappedPacket(direction: .inbound, kind: .rtp, bytes: packet))
            media.receiveRTP(packet, now: now, into: &output)
            forgetRefusedStreams(in: inbound)
        case .rtcp:
            installPendingSRTP()
            guard let inbound = srtpInbound else { droppedDatagrams += 1; return }
            var packet = datagram
            guard inbound.unprotectRTCP(&packet) == .ok else { return }
            parameters.tap?(TappedPacket(direction: .inbound, kind: .rtcp, bytes: packet))
            media.receiveRTCP(packet, now: now, into: &output)
            forgetRefusedStreams(in: inbound)
            flushMedia(now: now)
        default:
            droppedDatagrams += 1
        }
    }

    /// The earliest time `handleTimeout` has work to do.
    var nextTimeout: Instant? {
        let mediaDeadline = readMediaInPlace { $0.nextTimeout }
        return .earliest(.earliest(dtls.nextTimeout, sctp?.nextTimeout), mediaDeadline)
    }

    /// Runs a read of `media` on the stored value. A non-mutating call on a struct stored in a
    /// class is made on a copy (every dictionary and array of the engine retained, then
    /// released), and reads like `nextTimeout` run for every datagram.
    func readMediaInPlace<Value>(_ read: (inout MediaEngine) -> Value) -> Value {
        read(&media)
    }

    func handleTimeout(now: Instant) {
        dtls.handleTimeout(now: now)
        drainDTLS(now: now)
        if let sctp {
            sctp.handleTimeout(now: now)
            pumpSCTP(now: now)
        }
        media.handleTimeout(now: now, into: &output)
        flushMedia(now: now)
    }

    /// Sends close_notify and stops everything; the association cannot be reused.
    func close(now: Instant) {
        if let sctp, dtls.state == .connected {
            sctp.abort(reason: "peer connection closed", now: now)
            pumpSCTP(now: now)
        }
        dtls.close(now: now)
        drainDTLS(now: now)
        setDTLSState(.closed)
    }

    /// How many datagrams the ICE socket can queue (`ICETransport.selectedSocketDatagramCapacity`).
    /// The SCTP receive window is capped to three quarters of what they carry, so the peer's
    /// flight always fits in the socket even while this side falls behind; the rest is room
    /// for media and SACKs sharing the socket.
    var arrivalDatagramCapacity: Int? {
        didSet { applyArrivalLimit() }
    }

    /// The largest datagram the selected pair's first hop takes (`ICETransport
    /// .selectedPathMaximumDatagramSize`), or nil: SCTP's packet-size discovery probes no larger
    /// packet than fits it after the DTLS record's overhead.
    var pathMaximumDatagram: Int? {
        didSet { applyPathLimit() }
    }

    func applyPathLimit() {
        sctp?.association.setPathPacketLimit(pathMaximumDatagram.map { $0 - DTLSEndpoint.maximumRecordOverhead })
    }

    func applyArrivalLimit() {
        guard let sctp, let capacity = arrivalDatagramCapacity else { return }
        let payloadPerDatagram = parameters.sctp.mtu - SCTPPacket.headerSize - DataChunk.headerSize
        sctp.association.arrivalWindowLimit = capacity * payloadPerDatagram * 3 / 4
    }

    /// Adds data channels to a transport that was negotiated without them (an application
    /// section added by renegotiation, RFC 9429 §5.2.2). Connects at once if DTLS is up.
    /// The association's configuration for this peer: packets beyond an Ethernet frame only if
    /// the peer said it reads them whole.
    static func sctpConfiguration(_ base: SCTPAssociationConfig, remoteMaxPacket: Int?) -> SCTPAssociationConfig {
        var config = base
        config.maximumPacketSize = min(config.maximumPacketSize, remoteMaxPacket ?? SCTPAssociationConfig.packetSizeForUnknownPeers)
        // Only a Tern peer announces its packet size, and only a Tern sender is known to grow
        // its window by bytes acknowledged: towards it, a SACK every eighth packet (ACK thinning,
        // Docs/SCTP.md) — about a quarter fewer packets on a bulk transfer — and our slow start
        // counts up to eight packets per SACK from it. Others keep §6.2's every second packet:
        // a sender that grows its window per SACK would ramp up more slowly.
        if remoteMaxPacket != nil {
            config.sackEveryPackets = max(config.sackEveryPackets, 8)
            config.slowStartPacketsPerSack = max(config.slowStartPacketsPerSack, 8)
            // A Tern receiver advertises no more window than its socket can queue
            // (`arrivalWindowLimit`), so no burst within the window can overflow it: pacing and
            // Max.Burst, there for peers whose window says nothing about their socket (a
            // browser's holds ~55 packets), only cost a Tern peer throughput (at 50 ms RTT
            // 320 → 250 Mbit/s, Docs/SCTP.md "Bursts").
            config.pacing = false
            config.maxBurst = 1 << 20
        }
        return config
    }

    func enableDataChannels(_ channels: DataChannelParameters, now: Instant) {
        if let sctp {
            sctp.remoteMaxMessageSize = channels.remoteMaxMessageSize
            return
        }
        let endpoint = DataChannelEndpoint(role: parameters.dtls.role,
                                           config: Self.sctpConfiguration(parameters.sctp, remoteMaxPacket: channels.remoteMaxPacket),
                                           remoteMaxMessageSize: channels.remoteMaxMessageSize,
                                           localInit: parameters.sctpInit, peerInit: channels.remoteInit)
        sctp = endpoint
        applyArrivalLimit()
        applyPathLimit()
        if dtls.state == .connected {
            endpoint.connect(now: now)
            pumpSCTP(now: now)
        }
    }

    /// Hands over what the last calls produced.
    func takeOutput() -> Output {
        defer { output = Output() }
        return output
    }

    // MARK: - DTLS

    private func setDTLSState(_ state: DTLSTransportState) {
        guard state != dtlsState else { return }
        dtlsState = state
        output.events.append(.dtlsStateChanged(state))
    }

    /// Moves DTLS datagrams out and reacts to DTLS events.
    func drainDTLS(now: Instant) {
        while let datagram = dtls.pollTransmit() { output.datagrams.append(datagram) }
        while let event = dtls.pollEvent() {
            switch event {
            case let .connected(info, keying):
                if let keying { pendingSRTPKeying = (keying, info.role) }
                setDTLSState(.connected)
                output.events.append(.dtlsConnected(info))
                if let sctp {
                    sctp.connect(now: now)
                    pumpSCTP(now: now)
                }
            case let .applicationData(bytes):
                parameters.tap?(TappedPacket(direction: .inbound, kind: .sctp, bytes: bytes))
                if let sctp {
                    sctp.handle(packet: bytes, now: now)
                    pumpSCTP(now: now)
                }
            case .alert:
                break  // close_notify arrives as `.closed`; fatal alerts as `.failed`
            case .closed:
                setDTLSState(.closed)
                if let sctp {
                    sctp.abort(reason: "DTLS closed by the peer", now: now)
                    pumpSCTP(now: now)
                }
            case let .failed(error):
                // The reason first: whoever reacts to the state change may close the connection.
                output.events.append(.dtlsFailed(String(describing: error)))
                setDTLSState(.failed)
            }
        }
    }

    /// Creates the SRTP sessions from the handshake's keys, once, when media first needs them.
    private func installPendingSRTP() {
        guard let (keying, role) = pendingSRTPKeying else { return }
        pendingSRTPKeying = nil
        do {
            srtpOutbound = try SRTPSession(keying: keying, role: role, direction: .outbound)
            srtpInbound = try SRTPSession(keying: keying, role: role, direction: .inbound)
        } catch {
            output.events.append(.dtlsFailed("SRTP session set-up failed: \(error)"))
        }
    }

    // MARK: - Media output

    /// Protects what the media engine queued and moves it to the datagram output.
    func flushMedia(now: Instant) {
        installPendingSRTP()
        guard let outbound = srtpOutbound else {
            media.discardQueued()
            return
        }
        let tap = parameters.tap
        for var packet in media.takeQueuedRTP(now: now) {
            tap?(TappedPacket(direction: .outbound, kind: .rtp, bytes: packet))
            if outbound.protectRTP(&packet) == .ok { output.datagrams.append(packet) }
        }
        for var packet in media.takeQueuedRTCP() {
            tap?(TappedPacket(direction: .outbound, kind: .rtcp, bytes: packet))
            if outbound.protectRTCP(&packet) == .ok { output.datagrams.append(packet) }
        }
    }
}

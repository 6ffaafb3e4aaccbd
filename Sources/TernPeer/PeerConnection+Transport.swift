import Foundation
import Synchronization
import TernCore
import TernDTLS
import TernICE
import TernMedia
import TernRTP
import TernSCTP
import TernSDP

/// The driver half of the connection: runs a step of `PeerCore` under the lock and performs
/// the actions it returns (ICE agent, DTLS/SRTP/SCTP transport) outside it. No decisions here.
extension PeerConnection {
    /// Runs `step` on the core under the lock and yields its events there, in order, so that an
    /// event of another thread's step cannot overtake them; then performs the other actions
    /// outside the lock, in order, and returns the step's value. An action that fails stops the
    /// rest and throws.
    func advance<Value>(
        _ step: (inout PeerCore) throws(PeerConnectionError) -> (Value, [PeerCore.Action])
    ) throws(PeerConnectionError) -> Value {
        let (value, actions) = try core.withLock { core throws(PeerConnectionError) -> (Value, [PeerCore.Action]) in
            let (value, actions) = try step(&core)
            return (value, actions.filter { action in
                guard case let .emit(event) = action else { return true }
                continuation.yield(event)
                return false
            })
        }
        for action in actions { try perform(action) }
        return value
    }

    /// `advance` for a step that returns only actions.
    func advance(_ step: (inout PeerCore) throws(PeerConnectionError) -> [PeerCore.Action]) throws(PeerConnectionError) {
        try advance { core throws(PeerConnectionError) in ((), try step(&core)) }
    }

    private func perform(_ action: PeerCore.Action) throws(PeerConnectionError) {
        switch action {
        case let .createAgent(role):
            try createAgent(role: role)
        case let .assignAgentRole(role):
            try withAgent { ice throws(ICEError) in try ice.setRole(role) }
        case let .gather(credentials):
            try gather(credentials)
        case let .restartAgent(credentials):
            try withAgent { ice throws(ICEError) in
                _ = try ice.restart()
                try ice.setLocalCredentials(credentials)
            }
        case let .applyRemoteICE(credentials, candidates, endOfCandidates):
            try withAgent { ice throws(ICEError) in
                try ice.applyRemoteDescription(credentials: credentials, candidates: candidates, endOfCandidates: endOfCandidates)
            }
        case let .addRemoteCandidate(candidate):
            try withAgent { ice throws(ICEError) in try ice.addRemoteCandidate(candidate) }
        case .addRemoteEndOfCandidates:
            try withAgent { ice throws(ICEError) in try ice.addRemoteEndOfCandidates() }
        case let .buildTransport(transport, dataChannel):
            try buildTransport(transport, dataChannel: dataChannel)
        case let .configureTransport(send, receive, dataChannel):
            try configureTransport(send: send, receive: receive, dataChannel: dataChannel)
        case .startDTLS:
            guard let driver = objects.driver else { return }
            driver.iceConnected()
            driver.perform { core, now in core.start(now: now) }
        case .carryDTLSInChecks:
            objects.ice?.carryDTLSInChecks()
        case .startDTLSInChecks:
            objects.driver?.perform { core, now in core.start(now: now) }
        case .pairSelectedDuringHandshake:
            objects.driver?.perform { core, now in core.pairSelectedDuringHandshake(now: now) }
        case .updatePathLimits:
            if let driver = objects.driver, let ice = objects.ice { updatePathLimits(driver, from: ice) }
        case let .emit(event):
            continuation.yield(event)
        }
    }

    /// Runs `body` on the agent, if it is still there (a close may have taken it).
    private func withAgent(_ body: (ICETransport) throws(ICEError) -> Void) throws(PeerConnectionError) {
        guard let ice = objects.ice else { return }
        do throws(ICEError) { try body(ice) } catch { throw .ice(error) }
    }

    // MARK: ICE agent

    private func createAgent(role: ICERole) throws(PeerConnectionError) {
        var iceConfiguration = configuration.ice
        iceConfiguration.servers = configuration.iceServers
        iceConfiguration.transportPolicy = configuration.iceTransportPolicy
        let ice: ICETransport
        do throws(ICEError) {
            ice = try ICETransport(configuration: iceConfiguration, role: role)
        } catch {
            try? advance { $0.agentCreationFailed() }
            throw .ice(error)
        }
        guard objects.install(ice: ice) else {
            ice.close()
            return
        }
        // Offering DTLS in the checks: the answerer's first check may carry its ClientHello
        // before its answer arrives (the DTLS transport keeps it until it is built).
        if read(\.offersDTLSInChecks) { ice.acceptDTLSInChecks() }
        ice.setReceiveHandler { [weak self] datagram in self?.receiveBeforeTransport(datagram) }
        let task = Task { [weak self] in
            for await event in ice.events {
                guard let self else { return }
                try? self.advance { $0.handle(ice: event) }
            }
        }
        objects.install(iceEventsTask: task)
    }

    private func gather(_ credentials: ICECredentials) throws(PeerConnectionError) {
        guard let ice = objects.ice else { return }
        do throws(ICEError) {
            try ice.setLocalCredentials(credentials)
            try ice.gather()
        } catch {
            try? advance { $0.agentGatherFailed() }
            throw .ice(error)
        }
        try advance { core in core.agentGathered(gathered(by: ice), complete: ice.gatheringState == .complete) }
    }

    /// While candidates are held (a pooled agent before the first local description), reads
    /// what the agent gathered straight from it: its events reach the core through a task, and
    /// a description created right after would otherwise miss candidates already there.
    func takeGatheredCandidates() {
        guard read(\.holdsCandidates), let ice = objects.ice else { return }
        let complete = ice.gatheringState == .complete
        let candidates = gathered(by: ice)
        try? advance { $0.agentGathered(candidates, complete: complete) }
    }

    /// The agent's candidates in SDP's grammar (only relay ones under the relay policy).
    private func gathered(by ice: ICETransport) -> [TernSDP.ICECandidate] {
        let relayOnly = configuration.iceTransportPolicy == .relay
        return ice.localCandidates.filter { !relayOnly || $0.candidateType == .relay }
    }

    /// Until the DTLS transport exists, `objects` keeps what ICE delivers: a peer's ClientHello
    /// often arrives before its answer does.
    private func receiveBeforeTransport(_ datagram: [UInt8]) {
        objects.transport(forEarly: datagram)?.receive(datagram)
    }

    // MARK: Transport

    private func buildTransport(_ transport: NegotiatedTransport, dataChannel: NegotiatedDataChannel?) throws(PeerConnectionError) {
        guard let ice = objects.ice else { return }
        let fingerprints = transport.remoteFingerprints.compactMap { fingerprint -> DTLSFingerprint? in
            guard let algorithm = DTLSFingerprint.Algorithm(rawValue: fingerprint.algorithm) else { return nil }
            return DTLSFingerprint(algorithm: algorithm, digest: fingerprint.bytes)
        }
        var dtls = DTLSConfiguration(role: transport.dtlsRole, certificate: certificate,
                                     remoteFingerprints: fingerprints, srtpProfiles: configuration.srtpProfiles)
        dtls.handshakeTimeout = configuration.dtlsHandshakeTimeout
        var random = SystemRandomNumberGenerator()
        let now = clock.now()
        let media = MediaEngine(localRTCPSSRC: UInt32.random(in: 1...UInt32.max, using: &random),
                                cname: "tern-\(certificateTag)",
                                ntpMapping: NTPClockMapping(instant: now, ntp: NTPTimestamp(wallClock: Date())),
                                now: now, seed: random.next(), bandwidth: bandwidthConfiguration)
        let parameters = TransportCore.Parameters(
            dtls: dtls,
            dataChannels: dataChannel.map(dataChannelParameters),
            sctp: configuration.sctp, sctpInit: sctpInit, tap: configuration.packetTap,
            receiveBacklogLimit: configuration.dataChannelReceiveBacklog)
        let core: TransportCore
        do throws(DTLSError) { core = try TransportCore(parameters: parameters, media: media) } catch { throw .dtls(error) }
        let driver = TransportDriver(core: core, ice: ice, clock: clock) { [weak self] events in
            self?.handle(transport: events)
        }
        guard let early = objects.install(driver: driver) else {
            driver.close()
            return
        }
        updatePathLimits(driver, from: ice)
        ice.setReceiveHandler { datagram in driver.receive(datagram) }
        for datagram in early { driver.receive(datagram) }
        // ICE may have connected while the transport was being built (its `.startDTLS` found
        // none). Read after installing, so one of the two starts it (starting twice does nothing).
        if read(\.iceCanCarryData) {
            driver.iceConnected()
            driver.perform { core, now in core.start(now: now) }
        }
    }

    /// The bandwidth estimate starts where the configured rates put the call (audio and video,
    /// plus 10 % overhead; `VP8EncoderConfiguration.defaultBitrateKbps` of video when the ceiling
    /// follows the picture size, which is not known yet). Where the path can be probed, media
    /// starts lower and probes up (`MediaEngine.probingStartRate`); where it cannot (a peer
    /// without RTX or transport-wide feedback), a start at 300 kbit/s would take the estimate
    /// 15 s to reach a configured 1 Mbit/s at 8 %/s. The estimate only ever takes video below
    /// its ceiling (RTPSender) when the path cannot carry it; it may go up to twice the largest
    /// ceiling.
    private var bandwidthConfiguration: BandwidthEstimator.Configuration {
        let audio = Double(configuration.audioBitrate)
        let start = Double(configuration.videoBitrateKbps ?? VP8EncoderConfiguration.defaultBitrateKbps) * 1000
        let largest = Double(configuration.videoBitrateKbps ?? VP8EncoderConfiguration.largestDefaultMaximumBitrateKbps) * 1000
        return BandwidthEstimator.Configuration(startRate: (start + audio) / 0.9, minimumRate: 30_000,
                                                maximumRate: max((largest + audio) / 0.9 * 2, 500_000))
    }

    private func configureTransport(send: [SendStreamConfiguration], receive: [ReceiveStreamConfiguration],
                                    dataChannel: NegotiatedDataChannel?) throws(PeerConnectionError) {
        guard let driver = objects.driver else { return }
        let channels = dataChannel.map(dataChannelParameters)
        driver.perform { core, now in
            core.media.configure(senders: send, receivers: receive)
            if let channels { core.enableDataChannels(channels, now: now) }
        }
        // Channels the application created before the transport existed.
        for channel in objects.takeUnattachedChannels() { try open(channel, on: driver) }
    }

    private func updatePathLimits(_ driver: TransportDriver, from ice: ICETransport) {
        let capacity = ice.selectedSocketDatagramCapacity, pathLimit = ice.selectedPathMaximumDatagramSize
        driver.perform { core, _ in
            if let capacity { core.arrivalDatagramCapacity = capacity }
            core.pathMaximumDatagram = pathLimit
        }
    }

    /// What the transport needs of the negotiated data section. The peer's INIT (SNAP) is read
    /// here; one the SCTP layer refuses leaves the handshake to run as usual.
    private func dataChannelParameters(_ negotiated: NegotiatedDataChannel) -> TransportCore.DataChannelParameters {
        var remoteInit: InitChunk?
        if let bytes = negotiated.remoteSCTPInit {
            do throws(SCTPPacketError) { remoteInit = try InitChunk(serializedChunk: bytes) } catch {
                TernLog.logger("peer").warning("the peer's a=sctp-init is not a usable INIT (\(error)); the SCTP handshake runs instead")
            }
        }
        let maxMessage = negotiated.remoteMaxMessageSize == 0 ? UInt64(Int.max) : negotiated.remoteMaxMessageSize
        return TransportCore.DataChannelParameters(remoteMaxMessageSize: Int(clamping: maxMessage),
                                                   remoteMaxPacket: negotiated.remoteMaxPacket, remoteInit: remoteInit)
    }
}

import Foundation
import Synchronization
import TernCore
import TernDTLS
import TernICE
import TernRTP
import TernSCTP
import TernSDP

/// Bringing up and driving the transport: ICE from the descriptions, then DTLS, SRTP and SCTP
/// from the negotiated session (RFC 8829/9429 §5.10–5.11).
extension PeerConnection {
    /// Creates the ICE transport on the first description applied: the agent that makes the
    /// first offer is controlling (RFC 8445 §6.1.1; JSEP §3.5.1). A pooled agent, created
    /// earlier, learns its role here.
    func prepareIce(localOffer: Bool) throws(PeerConnectionError) {
        let role: IceRole = localOffer ? .controlling : .controlled
        let (pooled, needed) = state.withLock { state -> (IceTransport?, Bool) in
            if let ice = state.ice, !state.iceRoleAssigned {
                state.iceRoleAssigned = true
                return (ice, false)
            }
            return (nil, state.ice == nil && !state.closed)
        }
        if let pooled {
            do throws(IceError) { try pooled.setRole(role) } catch { throw .ice(error) }
            return
        }
        guard needed else { return }
        _ = try installIce(role: role, roleAssigned: true)
    }

    /// Gathers before any description (W3C `iceCandidatePoolSize`): the agent starts as
    /// controlling, with the credentials the first description will carry; `prepareIce`
    /// corrects the role, `setLocalDescription` reports the candidates.
    func startCandidatePool() throws(PeerConnectionError) {
        state.withLock { $0.candidatesReleased = false }
        guard try installIce(role: .controlling, roleAssigned: false) != nil else { return }
        try applyLocalIce()
    }

    /// Creates the agent and its event task unless another call got there first (then nil).
    private func installIce(role: IceRole, roleAssigned: Bool) throws(PeerConnectionError) -> IceTransport? {
        var iceConfiguration = configuration.ice
        iceConfiguration.servers = configuration.iceServers
        iceConfiguration.transportPolicy = configuration.iceTransportPolicy
        let ice: IceTransport
        do throws(IceError) {
            ice = try IceTransport(configuration: iceConfiguration, role: role)
        } catch {
            throw .ice(error)
        }
        // Installed only if no other call got here first: setLocalDescription and
        // setRemoteDescription may run concurrently, and each would otherwise create an agent
        // (seen as a hung benchmark with two GLib loop threads in one connection).
        let installed = state.withLock { state -> Bool in
            guard state.ice == nil, !state.closed else { return false }
            state.ice = ice
            state.iceRoleAssigned = roleAssigned
            return true
        }
        guard installed else {
            ice.close()
            return nil
        }
        ice.setReceiveHandler { [weak self] datagram in self?.receiveBeforeTransport(datagram) }
        let task = Task { [weak self] in
            for await event in ice.events {
                guard let self else { return }
                self.handle(ice: event)
            }
        }
        state.withLock { $0.iceEventsTask = task }
        return ice
    }

    /// While candidates are held (a pooled agent before the first local description, or the
    /// first gathering inside `setLocalDescription`), reads what the agent gathered straight
    /// from it: its events reach `handle(ice:)` through a task, and a description created (or
    /// `localDescription` read) right after would otherwise miss candidates that are already
    /// there.
    func takeGatheredCandidates() {
        guard let ice = state.withLock({ $0.candidatesReleased ? nil : $0.ice }) else { return }
        let complete = ice.gatheringState == .complete
        let relayOnly = configuration.iceTransportPolicy == .relay
        let gathered = ice.localCandidates.filter { !relayOnly || $0.type == .relay }
            .compactMap { try? TernSDP.IceCandidate(parsing: $0.sdp) }
        state.withLock { state in
            for candidate in gathered where !state.jsep.localCandidates.contains(candidate) {
                state.jsep.addLocalCandidate(candidate)
            }
            if complete { state.jsep.setLocalGatheringComplete() }
        }
    }

    /// Reports held candidates once the local description is set (W3C: gathering state,
    /// each candidate, then end-of-candidates if gathering already finished). Under the lock,
    /// so a candidate ICE reports meanwhile cannot overtake them.
    func releaseHeldCandidates() {
        state.withLock { state in
            guard !state.candidatesReleased else { return }
            state.candidatesReleased = true
            guard state.gatheringState != .new || !state.jsep.localCandidates.isEmpty else { return }
            emit(.iceGatheringStateChanged(.gathering))
            state.reportedGatheringState = .gathering
            for candidate in state.jsep.localCandidates { emit(.iceCandidate(state.jsep.candidateInit(for: candidate))) }
            if state.jsep.localGatheringComplete {
                emit(.iceGatheringStateChanged(.complete))
                state.reportedGatheringState = .complete
                emit(.iceCandidate(nil))
                state.endOfCandidatesReported = true
            }
        }
    }

    /// Until the DTLS transport exists, keep what ICE delivers (at most 64 datagrams): a peer's
    /// ClientHello often arrives before its answer does.
    private func receiveBeforeTransport(_ datagram: [UInt8]) {
        let driver = state.withLock { state -> TransportDriver? in
            if state.driver == nil, state.earlyDatagrams.count < 64 { state.earlyDatagrams.append(datagram) }
            return state.driver
        }
        driver?.receive(datagram)
    }

    /// Gives ICE our credentials and starts gathering; on an ICE restart, restarts the agent
    /// with the new credentials (RFC 8445 §9).
    func applyLocalIce() throws(PeerConnectionError) {
        let (ice, credentials, gathering) = state.withLock { state in
            (state.ice, state.jsep.localCredentials, state.gathering)
        }
        guard let ice else { return }
        do throws(IceError) {
            if !gathering {
                try ice.setLocalCredentials(credentials)
                // libnice finds host candidates while `gather` runs: hold their events, take them
                // into the local description before `setLocalDescription` returns (so that
                // `localDescription` read right after carries them, with end-of-candidates when
                // nothing else is to come), and report them from there (`releaseHeldCandidates`).
                let wasReleased = state.withLock { state -> Bool in
                    defer { state.candidatesReleased = false }
                    return state.candidatesReleased
                }
                do throws(IceError) {
                    try ice.gather()
                } catch {
                    if wasReleased { state.withLock { $0.candidatesReleased = true } }
                    throw error
                }
                state.withLock { $0.gathering = true }
                takeGatheredCandidates()
            } else if ice.localCredentials != credentials {
                _ = try ice.restart()
                try ice.setLocalCredentials(credentials)
                // A new ICE generation: the old remote credentials and end-of-candidates do not
                // carry over (the peer gathers again and trickles after its restart).
                state.withLock { state in
                    state.remoteCredentialsApplied = nil
                    state.remoteEndOfCandidates = false
                    state.endOfCandidatesReported = false  // the new generation ends with its own
                }
            }
        } catch {
            throw .ice(error)
        }
    }

    /// Gives ICE the remote credentials, the candidates in the description and any trickled
    /// before (RFC 8838 §4.3: candidates may arrive before the description that scopes them).
    func applyRemoteIce() throws(PeerConnectionError) {
        let work = state.withLock { state -> (IceTransport, IceCredentials, [String], Bool)? in
            guard let ice = state.ice, let remote = state.jsep.remoteDescription, let first = remote.media.first else { return nil }
            guard let ufrag = first.iceUfrag ?? remote.iceUfrag, let pwd = first.icePwd ?? remote.icePwd else { return nil }
            let credentials = IceCredentials(ufrag: ufrag, pwd: pwd)
            guard state.remoteCredentialsApplied != credentials else { return nil }
            state.remoteCredentialsApplied = credentials
            // With max-bundle every candidate belongs to the first section's transport.
            var candidates = remote.media.flatMap(\.candidates).map(\.candidateString)
            candidates += state.pendingRemoteCandidates.map(\.candidate)
            state.pendingRemoteCandidates = []
            // Candidates that came before the description: those it scopes (matching mid or
            // m-line index) join it now; the rest are dropped, as JSEP would have refused them.
            for early in state.earlyRemoteCandidates where (try? state.jsep.addRemoteCandidate(early)) != nil {
                candidates.append(early.candidate)
            }
            state.earlyRemoteCandidates = []
            let endOfCandidates = state.remoteEndOfCandidates || remote.media.contains { $0.endOfCandidates }
            return (ice, credentials, candidates, endOfCandidates)
        }
        guard let (ice, credentials, candidates, endOfCandidates) = work else { return }
        do throws(IceError) {
            try ice.applyRemoteDescription(credentials: credentials, candidates: candidates,
                                           endOfCandidates: endOfCandidates)
        } catch {
            throw .ice(error)
        }
    }

    /// When offer and answer are both applied: creates the transport on the first exchange and
    /// (re)configures media streams and data channels on every exchange.
    func applyNegotiationIfComplete() throws(PeerConnectionError) {
        let snapshot = state.withLock { state -> (NegotiatedSession, TransportDriver?, IceTransport?)? in
            guard state.jsep.signalingState == .stable, let negotiated = state.jsep.negotiated else { return nil }
            return (negotiated, state.driver, state.ice)
        }
        guard let (negotiated, existingDriver, ice) = snapshot, let ice else { return }
        let driver: TransportDriver
        if let existingDriver {
            driver = existingDriver
        } else {
            guard let transport = negotiated.transport else { return }
            driver = try makeDriver(transport: transport, dataChannel: negotiated.dataChannel, ice: ice)
        }
        let (sendConfigurations, receiveConfigurations) = mediaConfigurations(negotiated)
        let channels = negotiated.dataChannel.map(dataChannelParameters)
        driver.perform { core, now in
            core.media.configure(senders: sendConfigurations, receivers: receiveConfigurations)
            if let channels { core.enableDataChannels(channels, now: now) }
        }
        // Channels the application created before the transport existed.
        let waiting = state.withLock { state -> [DataChannel] in
            defer { state.unattachedChannels = [] }
            return state.unattachedChannels
        }
        for channel in waiting { try open(channel, on: driver) }
        // If ICE connected before the exchange finished (the remote checked us first), start DTLS now.
        let iceUp = state.withLock { $0.iceState == .connected || $0.iceState == .completed }
        if iceUp {
            driver.iceConnected()
            driver.perform { core, now in core.start(now: now) }
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

    private func makeDriver(transport: NegotiatedTransport, dataChannel: NegotiatedDataChannel?,
                            ice: IceTransport) throws(PeerConnectionError) -> TransportDriver {
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
                                now: now, seed: random.next())
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
        let (early, senders) = state.withLock { state -> ([[UInt8]], [RtpSender]) in
            state.driver = driver
            defer { state.earlyDatagrams = [] }
            return (state.earlyDatagrams, state.senders)
        }
        for sender in senders { sender.attach(driver) }
        let capacity = ice.selectedSocketDatagramCapacity, pathLimit = ice.selectedPathMaximumDatagramSize
        driver.perform { core, _ in
            if let capacity { core.arrivalDatagramCapacity = capacity }
            core.pathMaximumDatagram = pathLimit
        }
        ice.setReceiveHandler { datagram in driver.receive(datagram) }
        for datagram in early { driver.receive(datagram) }
        return driver
    }

    /// The streams to send and receive, from the negotiated sections and our transceivers.
    private func mediaConfigurations(_ negotiated: NegotiatedSession) -> ([SendStreamConfiguration], [ReceiveStreamConfiguration]) {
        let transceivers = state.withLock { $0.jsep.transceivers }
        var sends: [SendStreamConfiguration] = []
        var receives: [ReceiveStreamConfiguration] = []
        for section in negotiated.media where !section.isRejected {
            let primary = section.codecs.filter { !$0.isRTX }
            guard let codec = primary.first else { continue }
            let midExtension = section.headerExtensions.first { $0.uri == JsepConfiguration.midExtension }
                .flatMap { UInt8(exactly: $0.id) }
            if section.direction == .sendrecv || section.direction == .sendonly,
               let transceiver = transceivers.first(where: { $0.mid == section.mid }), let sender = transceiver.sender {
                // RTX is used when negotiated for the codec and we announced an RTX SSRC (RFC 4588 §8).
                let rtxCodec = section.codecs.first { $0.isRTX && $0.associatedPayloadType == codec.payloadType }
                var rtx: RTXStream?
                if let ssrc = sender.rtxSSRC, let rtxCodec { rtx = RTXStream(ssrc: ssrc, payloadType: rtxCodec.payloadType) }
                sends.append(SendStreamConfiguration(
                    mid: section.mid, kind: section.kind, ssrc: sender.ssrc, payloadType: codec.payloadType,
                    codecName: codec.name, clockRate: codec.clockRate, midExtensionID: midExtension,
                    nackEnabled: codec.feedback.contains { $0.lowercased() == "nack" }, rtx: rtx))
            }
            if section.direction == .sendrecv || section.direction == .recvonly {
                var payloadTypes: [UInt8: (name: String, clockRate: Int)] = [:]
                for codec in primary { payloadTypes[codec.payloadType] = (codec.name, codec.clockRate) }
                var rtxPayloadTypes: [UInt8: UInt8] = [:]
                for rtx in section.codecs where rtx.isRTX {
                    if let apt = rtx.associatedPayloadType, payloadTypes[apt] != nil { rtxPayloadTypes[rtx.payloadType] = apt }
                }
                receives.append(ReceiveStreamConfiguration(
                    mid: section.mid, kind: section.kind, announcedSSRCs: section.remoteSSRCs,
                    payloadTypes: payloadTypes, midExtensionID: midExtension,
                    nackEnabled: codec.feedback.contains { $0.lowercased() == "nack" },
                    rtxPayloadTypes: rtxPayloadTypes, rtxSSRCs: section.remoteRTXSSRCs,
                    transportCCExtensionID: section.headerExtensions
                        .first { $0.uri == JsepConfiguration.transportCCExtension }
                        .flatMap { UInt8(exactly: $0.id) }))
            }
        }
        return (sends, receives)
    }
}

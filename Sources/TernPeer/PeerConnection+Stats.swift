import Foundation
import Synchronization
import TernCore
import TernDTLS
import TernICE
import TernRTP
import TernSCTP
import TernSDP

/// W3C `getStats()`: a snapshot of the core and the objects, then one builder per family.
extension PeerConnection {
    /// A snapshot of every stats object of this connection (W3C webrtc-stats names).
    public func getStats() -> StatsReport {
        let (pairAsSelected, dtlsInfo, dtlsState, iceState, earlyDropped) = read { core in
            (core.selectedPair, core.dtlsInfo, core.dtlsState, core.iceState, core.earlyRemoteCandidatesDropped)
        }
        let objects = objects.statsSnapshot
        let (ice, driver, channels, tracks) = (objects.ice, objects.driver, objects.channels, objects.remoteTracks)
        let (opened, closed) = (objects.dataChannelsOpened, objects.dataChannelsClosed)
        // The live pair carries the RTT figures measured since selection (see Docs/ICE.md).
        let pair = ice?.selectedPair ?? pairAsSelected
        var report = StatsReport(
            timestamp: Date().timeIntervalSince1970 * 1000,
            peerConnection: PeerConnectionStats(dataChannelsOpened: opened, dataChannelsClosed: closed),
            transport: Self.transportStats(iceState: iceState, dtlsState: dtlsState, pair: pair, dtlsInfo: dtlsInfo,
                                           ice: ice, driver: driver, earlyCandidatesDropped: earlyDropped))
        if let pair {
            // The figures only, read under the transport's lock (not a copy of the estimator).
            let estimate = driver?.perform { core, _ -> EstimateFigures? in
                guard !core.media.senders.isEmpty else { return nil }
                return EstimateFigures(core.media.bandwidth, pacerQueuedBytes: core.media.pacer.queuedBytes)
            }
            var stats = CandidatePairStats(
                totalRoundTripTime: pair.totalRoundTripTime.seconds, currentRoundTripTime: pair.roundTripTime?.seconds,
                requestsSent: pair.requestsSent, responsesReceived: pair.responsesReceived)
            estimate?.fill(&stats)
            report.candidatePair = stats
            report.localCandidate = ICECandidateStats(pair.local, id: "LC")
            report.remoteCandidate = ICECandidateStats(pair.remote, id: "RC")
        }
        if let dtlsInfo {
            report.certificates = [CertificateStats(dtlsInfo.localFingerprint, id: "CERT-local"),
                                   CertificateStats(dtlsInfo.remoteFingerprint, id: "CERT-remote")]
        }
        if let driver {
            report.sctpTransport = Self.sctpStats(driver)
            Self.addRTPStats(to: &report, driver: driver, tracks: tracks, senders: objects.senders)
        }
        report.dataChannels = channels.sorted { ($0.id ?? 0) < ($1.id ?? 0) }.compactMap(DataChannelStats.init)
        return report
    }

    private static func transportStats(iceState: ICETransportState, dtlsState: DTLSTransportState, pair: ICECandidatePair?,
                                       dtlsInfo: DTLSConnectionInfo?, ice: ICETransport?, driver: TransportDriver?,
                                       earlyCandidatesDropped: Int) -> TransportStats {
        var stats = TransportStats(iceState: iceState.rawValue, dtlsState: dtlsState.rawValue)
        if pair != nil { stats.selectedCandidatePairId = "CP" }
        if let traffic = ice?.traffic {
            stats.packetsSent = traffic.packetsSent
            stats.bytesSent = traffic.bytesSent
            stats.packetsReceived = traffic.packetsReceived
            stats.bytesReceived = traffic.bytesReceived
        }
        if let ice {
            stats.dtlsInChecks = ice.carriesDTLSInChecks
            stats.dtlsPayloadsReceivedInChecks = ice.dtlsPayloadsReceivedInChecks
        }
        // Refused by ICE, or before ICE saw them (over the cap of candidates early to their description).
        if ice != nil || earlyCandidatesDropped > 0 {
            stats.remoteCandidatesDropped = (ice?.remoteCandidatesDropped ?? 0) + earlyCandidatesDropped
        }
        if let dtlsInfo {
            stats.dtlsRole = dtlsInfo.role.rawValue
            stats.tlsVersion = dtlsInfo.protocolVersion
            stats.dtlsCipher = dtlsInfo.cipherSuite
            stats.srtpCipher = dtlsInfo.srtpProfile.map { String(describing: $0) }
            stats.localCertificateId = "CERT-local"
            stats.remoteCertificateId = "CERT-remote"
        }
        if let driver {
            // What the transport refused, so a debug run shows an attack or a broken peer.
            let (srtp, dropped, malformed, unroutable, streamsRefused, rtcpSendersRefused, pacerDrops) = driver.perform { core, _ in
                (core.srtpInbound?.statistics, core.droppedDatagrams, core.media.malformedPackets, core.media.unroutablePackets,
                 core.media.streamsRefused, core.media.rtcpSendersRefused, core.media.pacer.droppedPackets)
            }
            stats.srtpAuthenticationFailures = srtp?.authenticationFailures ?? 0
            stats.srtpReplaysDropped = srtp?.replays ?? 0
            stats.malformedPacketsDropped = (srtp?.malformed ?? 0) + malformed + dropped
            stats.unroutableRtpPackets = unroutable
            stats.rtpStreamsRefused = streamsRefused
            stats.rtcpSendersRefused = rtcpSendersRefused
            stats.rtpPacketsDroppedByPacer = pacerDrops
        }
        return stats
    }

    private static func sctpStats(_ driver: TransportDriver) -> SCTPTransportStats? {
        guard let (congestion, counters, withoutHandshake) = driver.perform({ core, _ in
            core.sctp.map { ($0.association.congestion, $0.association.stats, $0.association.establishedWithoutHandshake) }
        }) else { return nil }
        return SCTPTransportStats(
            congestionWindow: congestion.congestionWindow, receiverWindow: congestion.peerReceiverWindow,
            mtu: congestion.packetSize, unackData: congestion.unacknowledgedChunks,
            smoothedRoundTripTime: congestion.smoothedRoundTripTime?.seconds, bytesInFlight: congestion.bytesInFlight,
            congestionPhase: congestion.phase.rawValue, slowStartThreshold: congestion.slowStartThreshold,
            retransmittedChunks: counters.retransmittedChunks, fastRecoveries: counters.fastRecoveries,
            retransmissionTimeouts: counters.retransmissionTimeouts, slowStartExitsOnDelay: counters.slowStartExitsOnDelay,
            malformedPacketsDropped: counters.malformedPackets, badVerificationTags: counters.badVerificationTag,
            rejectedCookies: counters.rejectedCookies, dataChunksBeyondWindow: counters.dataChunksBeyondWindow,
            fragmentsRefused: counters.fragmentsRefused,
            renegedFragments: counters.renegedFragments, renegedByPeer: counters.renegedByPeer,
            establishedWithoutHandshake: withoutHandshake,
            oversizedControlChunksDropped: counters.oversizedControlChunksDropped)
    }

    private static func addRTPStats(to report: inout StatsReport, driver: TransportDriver, tracks: [RemoteTrack],
                                    senders rtpSenders: [RTPSender]) {
        let (senders, receivers) = driver.perform { core, _ in
            (Array(core.media.senders.values), Array(core.media.receivers.values))
        }
        for sender in senders {
            let configuration = sender.configuration, counters = sender.statistics.outboundStats
            let kind = configuration.kind.rawValue, ssrc = counters.ssrc
            report.codecs.append(CodecStats(id: "CO-\(configuration.payloadType)", payloadType: Int(configuration.payloadType),
                                            mimeType: "\(kind)/\(configuration.codecName)", clockRate: configuration.clockRate))
            report.mediaSources.append(MediaSourceStats(id: "MS-\(ssrc)", kind: kind, trackIdentifier: "tern-\(kind)-\(ssrc)"))
            let rtpSender = rtpSenders.first { $0.ssrc == ssrc }
            var outbound = OutboundRTPEntry(
                id: "OT-\(ssrc)", counters: counters, kind: kind, mid: configuration.mid,
                codecId: "CO-\(configuration.payloadType)", mediaSourceId: "MS-\(ssrc)", remoteId: "RI-\(ssrc)",
                rtxSsrc: sender.history.rtx?.ssrc, nackRequestsRateLimited: sender.history.rateLimitedRequests,
                targetBitrate: rtpSender?.targetBitrate.map(Double.init))
            if let video = rtpSender?.videoSending {
                outbound.framesPerSecond = video.framesPerSecond
                outbound.frameWidth = video.frameWidth
                outbound.frameHeight = video.frameHeight
                outbound.qualityLimitationReason = video.qualityLimitationReason
                outbound.qualityLimitationDurations = video.qualityLimitationDurations
            }
            if kind == "video" { outbound.framesSent = rtpSender?.framesSent }
            report.outboundRTP.append(outbound)
            report.remoteInboundRTP.append(RemoteInboundRTPEntry(
                id: "RI-\(ssrc)", counters: sender.statistics.remoteInboundStats, kind: kind, localId: "OT-\(ssrc)"))
        }
        for receiver in receivers {
            let counters = receiver.statistics.inboundStats, kind = receiver.info.kind
            let track = tracks.first { $0.info.ssrc == counters.ssrc }
            let isVideo = kind == .video
            var inbound = InboundRTPEntry(
                id: "IT-\(counters.ssrc)", counters: counters, kind: kind.rawValue, mid: receiver.info.mid,
                codecId: "CI-\(receiver.payloadType)", nackCount: receiver.nack?.nackPacketsSent ?? 0, pliCount: receiver.pliSent,
                firCount: isVideo ? receiver.firSent : nil,
                framesReceived: track?.framesReceived, framesDecoded: track?.framesDecoded,
                frameWidth: track?.frameSize?.width, frameHeight: track?.frameSize?.height,
                framesDropped: isVideo ? receiver.framesDropped : nil,
                retransmittedPacketsReceived: isVideo ? receiver.retransmissionsReceived : nil,
                retransmittedBytesReceived: isVideo ? receiver.retransmittedBytesReceived : nil)
            if let rendering = track?.videoRendering {
                inbound.framesPerSecond = rendering.framesPerSecond
                inbound.freezeCount = rendering.freezeCount
                inbound.totalFreezesDuration = rendering.totalFreezesDuration
            }
            report.inboundRTP.append(inbound)
            report.codecs.append(CodecStats(id: "CI-\(receiver.payloadType)", payloadType: Int(receiver.payloadType),
                                            mimeType: "\(kind.rawValue)/\(receiver.info.codecName)", clockRate: receiver.info.clockRate))
        }
    }
}

extension ICECandidateStats {
    init(_ candidate: TernSDP.ICECandidate, id: String) {
        self.init(id: id, address: candidate.address, port: candidate.port, protocol: candidate.transport.lowercased(),
                  candidateType: candidate.type, priority: Int(candidate.priority))
    }
}

extension CertificateStats {
    init(_ fingerprint: DTLSFingerprint, id: String) {
        self.init(id: id, fingerprint: Hex.encode(fingerprint.digest, separator: ":", uppercase: true),
                  fingerprintAlgorithm: fingerprint.algorithm.rawValue)
    }
}

extension DataChannelStats {
    init?(_ channel: DataChannel) {
        guard let id = channel.id else { return nil }
        let counters = channel.counters
        self.init(id: "D\(id)", label: channel.label, protocol: channel.options.protocol, dataChannelIdentifier: Int(id),
                  state: channel.readyState.rawValue, messagesSent: counters.messagesSent, bytesSent: counters.bytesSent,
                  messagesReceived: counters.messagesReceived, bytesReceived: counters.bytesReceived)
    }
}

/// The estimator's figures for the candidate-pair stats, read under the transport's lock
/// (numbers only, not a copy of the estimator).
private struct EstimateFigures: Sendable {
    var target, delay, loss: Double
    var remote: Double?
    var lossRatio, queueDelayMs, newestQueueDelayMs: Double
    var capacity: Double?
    var inFlight: Int
    var window: Int?
    var probes: Int
    var lastProbe: Double?
    var testsPassed, testsFailed: Int
    var testRunning: Bool
    var pacerQueued: Int

    init(_ bandwidth: BandwidthEstimator, pacerQueuedBytes: Int) {
        pacerQueued = pacerQueuedBytes
        target = bandwidth.targetRate
        delay = bandwidth.delayBased.rate
        loss = bandwidth.lossBased.rate
        remote = bandwidth.remoteEstimate
        lossRatio = bandwidth.lossBased.lossRatio
        queueDelayMs = bandwidth.delayBased.standingQueue.queueDelayMs
        newestQueueDelayMs = bandwidth.delayBased.standingQueue.latestQueueDelayMs
        capacity = bandwidth.delayBased.capacity.rate
        inFlight = bandwidth.history.bytesInFlight
        window = bandwidth.congestionWindow.bytes
        probes = bandwidth.probeClustersStarted
        lastProbe = bandwidth.probeResults.last
        testsPassed = bandwidth.capacityTest.passes
        testsFailed = bandwidth.capacityTest.failures
        testRunning = bandwidth.capacityTest.running != nil
    }

    func fill(_ stats: inout CandidatePairStats) {
        stats.availableOutgoingBitrate = target
        stats.delayBasedBitrate = delay
        stats.lossBasedBitrate = loss
        stats.remoteEstimatedBitrate = remote
        stats.transportLossRatio = lossRatio
        stats.queueDelayMs = queueDelayMs
        stats.newestQueueDelayMs = newestQueueDelayMs
        stats.knownCapacityBitrate = capacity
        stats.bytesInFlight = inFlight
        stats.congestionWindowBytes = window
        stats.probeClustersStarted = probes
        stats.lastProbeBitrate = lastProbe
        stats.capacityTestsPassed = testsPassed
        stats.capacityTestsFailed = testsFailed
        stats.capacityTestRunning = testRunning
        stats.pacerQueuedBytes = pacerQueued
    }
}

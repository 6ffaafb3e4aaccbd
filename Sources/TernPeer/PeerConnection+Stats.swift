import Foundation
import Synchronization
import TernCore
import TernDTLS
import TernICE
import TernRTP
import TernSCTP

/// W3C `getStats()`.
extension PeerConnection {
    /// A snapshot of every stats object of this connection (W3C webrtc-stats names).
    public func getStats() -> StatsReport {
        let timestamp = Date().timeIntervalSince1970 * 1000
        let snapshot = state.withLock { state in
            (state.ice, state.driver, state.core.selectedPair, state.core.dtlsInfo, state.core.dtlsState,
             Array(state.channels.values), Array(state.remoteTracks.values), state.dataChannelsOpened,
             state.dataChannelsClosed, state.core.iceState)
        }
        let (ice, driver, pairAsSelected, dtlsInfo, dtlsState, channels, tracks, opened, closed, iceState) = snapshot
        // The live pair carries the RTT figures measured since selection (see Docs/ICE.md).
        let pair = ice?.selectedPair ?? pairAsSelected
        var entries: [StatsReport.Entry] = []
        func add(_ id: String, _ type: String, _ values: [String: StatsValue]) {
            entries.append(.init(id: id, type: type, timestamp: timestamp, values: values))
        }

        add("PC", "peer-connection", ["dataChannelsOpened": .int(Int64(opened)), "dataChannelsClosed": .int(Int64(closed))])

        if let pair {
            var pairStats: [String: StatsValue] = [
                "localCandidateId": .string("LC"), "remoteCandidateId": .string("RC"), "transportId": .string("T"),
                "state": .string("succeeded"), "nominated": .bool(true),
                "totalRoundTripTime": .double(pair.totalRoundTripTime.seconds),
                "requestsSent": .int(Int64(clamping: pair.requestsSent)),
                "responsesReceived": .int(Int64(clamping: pair.responsesReceived)),
            ]
            // Absent rather than 0 until a measurement exists (a peer that does not answer Tern's probe).
            if let rtt = pair.roundTripTime { pairStats["currentRoundTripTime"] = .double(rtt.seconds) }
            add("CP", "candidate-pair", pairStats)
            for (id, type, candidate) in [("LC", "local-candidate", pair.local), ("RC", "remote-candidate", pair.remote)] {
                add(id, type, [
                    "transportId": .string("T"), "address": .string(candidate.address), "port": .int(Int64(candidate.port)),
                    "protocol": .string(candidate.transport.lowercased()), "candidateType": .string(candidate.type),
                    "priority": .int(Int64(candidate.priority)),
                ])
            }
        }

        var transport: [String: StatsValue] = [
            "iceState": .string(iceState.rawValue), "dtlsState": .string(dtlsState.rawValue),
        ]
        if pair != nil { transport["selectedCandidatePairId"] = .string("CP") }
        // Not W3C: remote candidates refused (unusable, over a limit, mDNS names that do not resolve).
        if let ice { transport["remoteCandidatesDropped"] = .int(Int64(ice.remoteCandidatesDropped)) }
        if let dtlsInfo {
            transport["dtlsRole"] = .string(dtlsInfo.role.rawValue)
            transport["tlsVersion"] = .string(dtlsInfo.protocolVersion)
            transport["dtlsCipher"] = .string(dtlsInfo.cipherSuite)
            if let profile = dtlsInfo.srtpProfile { transport["srtpCipher"] = .string(String(describing: profile)) }
            transport["localCertificateId"] = .string("CERT-local")
            transport["remoteCertificateId"] = .string("CERT-remote")
            add("CERT-local", "certificate", ["fingerprint": .string(Hex.encode(dtlsInfo.localFingerprint.digest, separator: ":", uppercase: true)),
                                              "fingerprintAlgorithm": .string(dtlsInfo.localFingerprint.algorithm.rawValue)])
            add("CERT-remote", "certificate", ["fingerprint": .string(Hex.encode(dtlsInfo.remoteFingerprint.digest, separator: ":", uppercase: true)),
                                               "fingerprintAlgorithm": .string(dtlsInfo.remoteFingerprint.algorithm.rawValue)])
        }
        if let driver {
            // Not W3C: what the transport refused, so a debug run shows an attack or a broken peer.
            let (srtp, dropped, malformed, unroutable, streamsRefused, rtcpSendersRefused) = driver.perform { core, _ in
                (core.srtpInbound?.statistics, core.droppedDatagrams, core.media.malformedPackets, core.media.unroutablePackets,
                 core.media.streamsRefused, core.media.rtcpSendersRefused)
            }
            transport["srtpAuthenticationFailures"] = .int(Int64(srtp?.authenticationFailures ?? 0))
            transport["srtpReplaysDropped"] = .int(Int64(srtp?.replays ?? 0))
            transport["malformedPacketsDropped"] = .int(Int64((srtp?.malformed ?? 0) + malformed + dropped))
            transport["unroutableRtpPackets"] = .int(Int64(unroutable))
            transport["rtpStreamsRefused"] = .int(Int64(streamsRefused))
            transport["rtcpSendersRefused"] = .int(Int64(rtcpSendersRefused))
        }
        add("T", "transport", transport)

        // W3C RTCSctpTransportStats, plus what the sender's congestion control is doing (not W3C).
        if let association = driver?.perform({ core, _ in
            core.sctp.map { ($0.association.congestion, $0.association.stats, $0.association.establishedWithoutHandshake) }
        }) {
            let (congestion, counters, withoutHandshake) = association
            var sctp: [String: StatsValue] = [
                "transportId": .string("T"), "congestionWindow": .int(Int64(congestion.congestionWindow)),
                "receiverWindow": .int(Int64(congestion.peerReceiverWindow)), "mtu": .int(Int64(congestion.packetSize)),
                "unackData": .int(Int64(congestion.unacknowledgedChunks)),
                "bytesInFlight": .int(Int64(congestion.bytesInFlight)), "congestionPhase": .string(congestion.phase.rawValue),
                "retransmittedChunks": .int(Int64(counters.retransmittedChunks)),
                "fastRecoveries": .int(Int64(counters.fastRecoveries)),
                "retransmissionTimeouts": .int(Int64(counters.retransmissionTimeouts)),
                "slowStartExitsOnDelay": .int(Int64(counters.slowStartExitsOnDelay)),
                // What a hostile or broken peer made the association refuse (Docs/SECURITY.md).
                "malformedPacketsDropped": .int(Int64(counters.malformedPackets)),
                "badVerificationTags": .int(Int64(counters.badVerificationTag)),
                "rejectedCookies": .int(Int64(counters.rejectedCookies)),
                "fragmentsRefused": .int(Int64(counters.fragmentsRefused)),
                "renegedFragments": .int(Int64(counters.renegedFragments)),
                "renegedByPeer": .int(Int64(counters.renegedByPeer)),
                // Not W3C: the association came up from the INITs in the descriptions (SNAP).
                "establishedWithoutHandshake": .bool(withoutHandshake),
                "oversizedControlChunksDropped": .int(Int64(counters.oversizedControlChunksDropped)),
            ]
            if let threshold = congestion.slowStartThreshold { sctp["slowStartThreshold"] = .int(Int64(threshold)) }
            if let srtt = congestion.smoothedRoundTripTime { sctp["smoothedRoundTripTime"] = .double(srtt.seconds) }
            add("SCTP", "sctp-transport", sctp)
        }

        if let driver {
            let (senders, receivers) = driver.perform { core, _ in
                (Array(core.media.senders.values), Array(core.media.receivers.values))
            }
            for sender in senders {
                let stats = sender.statistics.outboundStats
                let codecID = "CO-\(sender.configuration.payloadType)"
                add(codecID, "codec", ["payloadType": .int(Int64(sender.configuration.payloadType)),
                                       "mimeType": .string("\(sender.configuration.kind.rawValue)/\(sender.configuration.codecName)"),
                                       "clockRate": .int(Int64(sender.configuration.clockRate)), "transportId": .string("T")])
                add("MS-\(stats.ssrc)", "media-source", ["kind": .string(sender.configuration.kind.rawValue),
                                                         "trackIdentifier": .string("tern-\(sender.configuration.kind.rawValue)-\(stats.ssrc)")])
                add("OT-\(stats.ssrc)", "outbound-rtp", [
                    "ssrc": .int(Int64(stats.ssrc)), "kind": .string(sender.configuration.kind.rawValue), "mid": .string(sender.configuration.mid),
                    "transportId": .string("T"), "codecId": .string(codecID), "mediaSourceId": .string("MS-\(stats.ssrc)"),
                    "packetsSent": .int(Int64(stats.packetsSent)), "bytesSent": .int(Int64(stats.bytesSent)),
                    "headerBytesSent": .int(Int64(stats.headerBytesSent)),
                    "retransmittedPacketsSent": .int(Int64(stats.retransmittedPacketsSent)),
                    "retransmittedBytesSent": .int(Int64(stats.retransmittedBytesSent)),
                    "nackCount": .int(Int64(stats.nackCount)), "pliCount": .int(Int64(stats.pliCount)),
                    "remoteId": .string("RI-\(stats.ssrc)"),
                    // Not W3C: NACKed packets not resent because the retransmission budget was spent.
                    "nackRequestsRateLimited": .int(Int64(clamping: sender.history.rateLimitedRequests)),
                ].merging(sender.history.rtx.map { ["rtxSsrc": StatsValue.int(Int64($0.ssrc))] } ?? [:]) { a, _ in a })
                let remote = sender.statistics.remoteInboundStats
                var remoteValues: [String: StatsValue] = [
                    "ssrc": .int(Int64(remote.ssrc)), "kind": .string(sender.configuration.kind.rawValue), "transportId": .string("T"),
                    "packetsLost": .int(remote.packetsLost), "fractionLost": .double(remote.fractionLost),
                    "jitter": .double(remote.jitter), "localId": .string("OT-\(stats.ssrc)"),
                    "totalRoundTripTime": .double(remote.totalRoundTripTime),
                    "roundTripTimeMeasurements": .int(Int64(remote.roundTripTimeMeasurements)),
                ]
                if let rtt = remote.roundTripTime { remoteValues["roundTripTime"] = .double(rtt) }
                add("RI-\(stats.ssrc)", "remote-inbound-rtp", remoteValues)
            }
            for receiver in receivers {
                let stats = receiver.statistics.inboundStats
                let track = tracks.first { $0.info.ssrc == stats.ssrc }
                var values: [String: StatsValue] = [
                    "ssrc": .int(Int64(stats.ssrc)), "kind": .string(receiver.info.kind.rawValue), "mid": .string(receiver.info.mid),
                    "transportId": .string("T"), "codecId": .string("CI-\(receiver.payloadType)"),
                    "packetsReceived": .int(Int64(stats.packetsReceived)), "packetsLost": .int(stats.packetsLost),
                    "jitter": .double(stats.jitter), "bytesReceived": .int(Int64(stats.bytesReceived)),
                    "headerBytesReceived": .int(Int64(stats.headerBytesReceived)),
                    "packetsDiscarded": .int(Int64(stats.packetsDiscarded)),
                    "nackCount": .int(Int64(receiver.nack?.nackPacketsSent ?? 0)), "pliCount": .int(Int64(receiver.pliSent)),
                ]
                if let track {
                    values["framesReceived"] = .int(Int64(track.framesReceived))
                    values["framesDecoded"] = .int(Int64(track.framesDecoded))
                    if let size = track.frameSize {
                        values["frameWidth"] = .int(Int64(size.width))
                        values["frameHeight"] = .int(Int64(size.height))
                    }
                }
                if receiver.info.kind == .video {
                    values["framesDropped"] = .int(Int64(receiver.framesDropped))
                    values["retransmittedPacketsReceived"] = .int(Int64(receiver.retransmissionsReceived))
                    values["retransmittedBytesReceived"] = .int(Int64(receiver.retransmittedBytesReceived))
                }
                add("IT-\(stats.ssrc)", "inbound-rtp", values)
                add("CI-\(receiver.payloadType)", "codec", ["payloadType": .int(Int64(receiver.payloadType)),
                                                            "mimeType": .string("\(receiver.info.kind.rawValue)/\(receiver.info.codecName)"),
                                                            "clockRate": .int(Int64(receiver.info.clockRate)), "transportId": .string("T")])
            }
        }
        for channel in channels.sorted(by: { ($0.id ?? 0) < ($1.id ?? 0) }) {
            guard let id = channel.id else { continue }
            let counters = channel.counters
            add("D\(id)", "data-channel", [
                "label": .string(channel.label), "protocol": .string(channel.options.protocol),
                "dataChannelIdentifier": .int(Int64(id)), "state": .string(channel.readyState.rawValue),
                "messagesSent": .int(Int64(counters.messagesSent)), "bytesSent": .int(Int64(counters.bytesSent)),
                "messagesReceived": .int(Int64(counters.messagesReceived)), "bytesReceived": .int(Int64(counters.bytesReceived)),
            ])
        }
        return StatsReport(entries: entries)
    }
}

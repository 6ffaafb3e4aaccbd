import Synchronization
import TernCore
import TernDTLS
import TernICE
import TernSCTP
import TernSDP

/// Turning what ICE and the transport report into state changes and W3C events.
extension PeerConnection {
    func handle(ice event: IceEvent) {
        switch event {
        // Emitted under the lock: gathered candidates are held until setLocalDescription
        // (`releaseHeldCandidates`), and none may overtake them.
        // A held candidate may already be known (`takeGatheredCandidates`): never added or
        // reported twice.
        case let .candidate(candidate):
            state.withLock { state in
                guard let parsed = try? TernSDP.IceCandidate(parsing: candidate.sdp),
                      !state.jsep.localCandidates.contains(parsed) else { return }
                let candidateInit = state.jsep.addLocalCandidate(parsed)
                if state.candidatesReleased { emit(.iceCandidate(candidateInit)) }
            }
        case .gatheringComplete:
            state.withLock { state in
                state.jsep.setLocalGatheringComplete()
                guard state.candidatesReleased, !state.endOfCandidatesReported else { return }
                state.endOfCandidatesReported = true
                emit(.iceCandidate(nil))
            }
        case let .gatheringStateChanged(gathering):
            state.withLock { state in
                state.gatheringState = gathering
                // Only forward (new → gathering → complete): a pooled agent's earlier events can
                // arrive after `releaseHeldCandidates` reported where it already was.
                func rank(_ state: IceGatheringState) -> Int { state == .new ? 0 : state == .gathering ? 1 : 2 }
                guard state.candidatesReleased, rank(gathering) > rank(state.reportedGatheringState) else { return }
                state.reportedGatheringState = gathering
                emit(.iceGatheringStateChanged(gathering))
            }
        case let .stateChanged(iceState):
            let driver = state.withLock { state -> TransportDriver? in
                state.iceState = iceState
                return state.driver
            }
            emit(.iceConnectionStateChanged(iceState))
            if iceState == .connected || iceState == .completed {
                driver?.iceConnected()
                driver?.perform { core, now in core.start(now: now) }
            }
            updateConnectionState()
        case let .selectedPairChanged(pair):
            let (driver, ice) = state.withLock { state in
                state.selectedPair = pair
                return (state.driver, state.ice)
            }
            if let driver, let ice {
                let capacity = ice.selectedSocketDatagramCapacity, pathLimit = ice.selectedPathMaximumDatagramSize
                driver.perform { core, _ in
                    if let capacity { core.arrivalDatagramCapacity = capacity }
                    core.pathMaximumDatagram = pathLimit
                }
            }
            emit(.selectedCandidatePairChanged(pair))
            // A selected pair can carry data at once (libnice sends on it before it reports the
            // component connected): start DTLS now rather than at the state change that follows
            // (measured ~0.3 ms later on loopback). Both calls do nothing the second time.
            if let driver {
                driver.iceConnected()
                driver.perform { core, now in core.start(now: now) }
            }
        case .remoteCandidateDropped:
            break  // recorded in the ICE trace with its reason
        }
    }

    func handle(transport events: [TransportEvent]) {
        for event in events {
            switch event {
            case let .dtlsStateChanged(dtlsState):
                let senders = state.withLock { state -> [RtpSender] in
                    state.dtlsState = dtlsState
                    return dtlsState == .connected ? state.senders : []
                }
                updateConnectionState()
                for sender in senders { sender.transportConnected() }
            case let .dtlsConnected(info):
                state.withLock { $0.dtlsInfo = info }
                emit(.dtlsConnected(info))
            case let .dtlsFailed(reason):
                emit(.dtlsFailed(reason))
            case .sctpConnected:
                break
            case let .channelOpened(info, _):
                let (channel, isNew) = state.withLock { state -> (DataChannel?, Bool) in
                    state.dataChannelsOpened += 1
                    if let existing = state.channels[info.id] { return (existing, false) }
                    guard !state.closed else { return (nil, false) }
                    let options = DataChannelInit(ordered: info.ordered, maxRetransmits: info.maxRetransmits,
                                                  maxPacketLifeTime: info.maxPacketLifeTime, protocol: info.protocol,
                                                  negotiated: info.negotiated, id: info.id, priority: info.priority)
                    let channel = DataChannel(label: info.label, options: options, id: info.id)
                    state.channels[info.id] = channel
                    return (channel, true)
                }
                guard let channel else { continue }
                if isNew, let driver = state.withLock({ $0.driver }) {
                    channel.attach(driver, id: info.id)
                    emit(.dataChannel(channel))
                }
                channel.didOpen()
            case let .channelMessage(id, message):
                if let channel = state.withLock({ $0.channels[id] }) {
                    channel.didReceive(message)
                } else if let driver = state.withLock({ $0.driver }), driver.receiveBacklog.release(message.byteCount) {
                    driver.resumeReceiving()   // nobody to read it: it holds nothing back
                }
            case let .channelBufferedAmountLow(id):
                state.withLock { $0.channels[id] }?.didReachLowBufferedAmount()
            case let .channelClosed(id, reason):
                let channel = state.withLock { state -> DataChannel? in
                    state.dataChannelsClosed += 1
                    return state.channels.removeValue(forKey: id)
                }
                channel?.didClose(reason: reason)
            case let .sctpClosed(reason):
                let channels = state.withLock { state -> [DataChannel] in
                    defer { state.channels = [:] }
                    return Array(state.channels.values)
                }
                for channel in channels { channel.didClose(reason: reason) }
            case let .remoteStreamStarted(info):
                let track = RemoteTrack(info: info) { [weak self] in self?.requestKeyframe(remoteSSRC: info.ssrc) }
                let added = state.withLock { state -> Bool in
                    guard !state.closed, state.remoteTracks[info.ssrc] == nil else { return false }
                    state.remoteTracks[info.ssrc] = track
                    return true
                }
                if added { emit(.track(track)) }
            case let .audioFrame(ssrc, frame):
                state.withLock { $0.remoteTracks[ssrc] }?.consume(frame)
            case let .audioLoss(ssrc, count):
                state.withLock { $0.remoteTracks[ssrc] }?.lose(audioFrames: count)
            case let .videoFrame(ssrc, frame):
                state.withLock { $0.remoteTracks[ssrc] }?.consume(frame)
            case let .keyframeRequested(ssrc):
                state.withLock { state in state.senders.first { $0.ssrc == ssrc } }?.requestKeyframe()
            }
        }
    }

    private func requestKeyframe(remoteSSRC ssrc: UInt32) {
        state.withLock { $0.driver }?.perform { core, _ in core.media.requestKeyframe(remoteSSRC: ssrc) }
    }

    /// Recomputes W3C `connectionState` and reports a change.
    func updateConnectionState() {
        let changed = state.withLock { state -> PeerConnectionState? in
            let aggregate = PeerConnectionState.aggregate(ice: state.iceState, dtls: state.dtlsState, closed: state.closed)
            guard aggregate != state.connectionState else { return nil }
            state.connectionState = aggregate
            return aggregate
        }
        if let changed { emit(.connectionStateChanged(changed)) }
    }
}

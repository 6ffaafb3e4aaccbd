import Synchronization
import TernCore
import TernDTLS
import TernICE
import TernSCTP
import TernSDP

/// Routing what the transport reports to the objects the application holds (channels, tracks,
/// senders); DTLS state goes to the core.
extension PeerConnection {
    func handle(transport events: [TransportEvent]) {
        for event in events {
            switch event {
            case let .dtlsStateChanged(dtlsState):
                try? advance { $0.handle(dtls: dtlsState) }
                if dtlsState == .connected {
                    for sender in state.withLock({ $0.senders }) { sender.transportConnected() }
                }
            case let .dtlsConnected(info):
                try? advance { $0.handle(dtlsConnected: info) }
            case let .dtlsFailed(reason):
                emit(.dtlsFailed(reason))
            case .sctpConnected:
                break
            case let .channelOpened(info, _):
                let (channel, isNew) = state.withLock { state -> (DataChannel?, Bool) in
                    state.dataChannelsOpened += 1
                    if let existing = state.channels[info.id] { return (existing, false) }
                    guard !state.core.isClosed else { return (nil, false) }
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
                    guard !state.core.isClosed, state.remoteTracks[info.ssrc] == nil else { return false }
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
}

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
                    for sender in objects.senders { sender.transportConnected() }
                }
            case let .dtlsConnected(info):
                try? advance { $0.handle(dtlsConnected: info) }
            case let .dtlsFailed(reason):
                emit(.dtlsFailed(reason))
            case .sctpConnected:
                break
            case let .channelOpened(info, _):
                guard let (channel, isNew) = objects.channelOpened(info) else { continue }
                if isNew, let driver = objects.driver {
                    channel.attach(driver, id: info.id)
                    emit(.dataChannel(channel))
                }
                channel.didOpen()
            case let .channelMessage(id, message):
                if let channel = objects.channel(id: id) {
                    channel.didReceive(message)
                } else if let driver = objects.driver, driver.receiveBacklog.release(message.byteCount) {
                    driver.resumeReceiving()   // nobody to read it: it holds nothing back
                }
            case let .channelBufferedAmountLow(id):
                objects.channel(id: id)?.didReachLowBufferedAmount()
            case let .channelClosed(id, reason):
                objects.channelClosed(id: id)?.didClose(reason: reason)
            case let .sctpClosed(reason):
                for channel in objects.takeAllChannels() { channel.didClose(reason: reason) }
            case let .remoteStreamStarted(info):
                let track = RemoteTrack(info: info) { [weak self] in self?.requestKeyframe(remoteSSRC: info.ssrc) }
                if objects.add(track: track, ssrc: info.ssrc) { emit(.track(track)) }
            case let .audioFrame(ssrc, frame):
                objects.track(ssrc: ssrc)?.consume(frame)
            case let .audioLoss(ssrc, count):
                objects.track(ssrc: ssrc)?.lose(audioFrames: count)
            case let .videoFrame(ssrc, frame):
                objects.track(ssrc: ssrc)?.consume(frame)
            case let .keyframeRequested(ssrc):
                objects.sender(ssrc: ssrc)?.requestKeyframe()
            }
        }
    }

    private func requestKeyframe(remoteSSRC ssrc: UInt32) {
        objects.driver?.perform { core, _ in core.media.requestKeyframe(remoteSSRC: ssrc) }
    }
}

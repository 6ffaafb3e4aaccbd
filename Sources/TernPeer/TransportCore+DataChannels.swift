import TernCore
import TernDTLS
import TernSCTP

/// Data channels over the SCTP association (RFC 8831), carried as DTLS application data (RFC 8261).
extension TransportCore {
    /// Moves SCTP packets into DTLS records and SCTP events out as `TransportEvent`s.
    func pumpSCTP(now: Instant) {
        guard let sctp else { return }
        sctp.association.sendRateLimit = readMediaInPlace { $0.dataChannelLimit(now: now) }
        while let packet = sctp.pollTransmit(now: now) {
            guard dtls.state == .connected else { continue }  // nothing can carry it; SCTP retransmits
            parameters.tap?(TappedPacket(direction: .outbound, kind: .sctp, bytes: packet))
            media.linkShare.dataSent(packet.count + DTLSEndpoint.maximumRecordOverhead, now: now)
            do {
                try dtls.send(applicationData: packet)
            } catch {
                output.events.append(.sctpClosed(reason: "DTLS refused an SCTP packet: \(error)"))
            }
        }
        if sctp.association.hasUnsentData { media.linkShare.dataWaiting(now: now) }
        // Messages stay in the association while the application has a full backlog: there
        // they count against the receive window, so the peer stops sending.
        while receiveBacklog.admits(), let event = sctp.pollEvent() {
            switch event {
            case .connected:
                output.events.append(.sctpConnected)
            case let .channelOpened(info):
                let remote = isRemotelyOpened(info.id)
                output.events.append(.channelOpened(info, remote: remote))
            case let .message(id, message):
                receiveBacklog.add(message.byteCount)
                output.events.append(.channelMessage(id: id, message))
            case let .bufferedAmountLow(id):
                output.events.append(.channelBufferedAmountLow(id: id))
            case let .channelClosed(id, reason):
                output.events.append(.channelClosed(id: id, reason: reason))
            case let .messageRejected(id, reason):
                output.events.append(.channelClosed(id: id, reason: "message rejected: \(reason)"))
            case let .associationClosed(reason):
                output.events.append(.sctpClosed(reason: String(describing: reason)))
            }
        }
        drainDTLS(now: now)
    }

    /// Whether stream `id` was opened by the peer: the DTLS client uses even ids, the server odd
    /// ones (RFC 8832 §6), so parity tells who opened a DCEP channel.
    private func isRemotelyOpened(_ id: UInt16) -> Bool {
        let ours = (id % 2 == 0) == (parameters.dtls.role == .client)
        return !ours
    }

    func createDataChannel(label: String, options: DataChannelInit, now: Instant) throws(DataChannelError) -> UInt16 {
        guard let sctp else { throw .invalidState(.closed) }
        let id = try sctp.createDataChannel(label: label, options: options, now: now)
        pumpSCTP(now: now)
        return id
    }

    func send(_ message: DataChannelMessage, channel id: UInt16, now: Instant) throws(DataChannelError) {
        guard let sctp else { throw .unknownChannel(id) }
        try sctp.send(message, channel: id, now: now)
        pumpSCTP(now: now)
    }

    func closeChannel(_ id: UInt16, now: Instant) {
        guard let sctp else { return }
        sctp.close(channel: id, now: now)
        pumpSCTP(now: now)
    }

    func channelInfo(_ id: UInt16) -> DataChannelInfo? { sctp?.channel(id) }

    func setBufferedAmountLowThreshold(_ bytes: Int, channel id: UInt16) {
        sctp?.setBufferedAmountLowThreshold(bytes, channel: id)
    }
}

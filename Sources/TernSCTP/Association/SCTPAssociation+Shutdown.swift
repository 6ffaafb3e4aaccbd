internal import TernCore

/// Graceful shutdown (RFC 9260 §9.2).
extension SCTPAssociation {
    /// Sends SHUTDOWN (or SHUTDOWN ACK) once nothing is queued or outstanding.
    func maybeSendShutdown(now: Instant) {
        guard sendQueue.isEmpty, outstanding.isEmpty else { return }
        switch state {
        case .shutdownPending:
            state = .shutdownSent
            controlChunks.append(.shutdown(cumulativeTSNAck: received.cumulative))
            t2Deadline = now + rto.rto
        case .shutdownReceived:
            state = .shutdownAckSent
            controlChunks.append(.shutdownAck)
            t2Deadline = now + rto.rto
        default: break
        }
    }

    func handleShutdown(cumulativeTSNAck: UInt32, now: Instant) {
        switch state {
        case .established, .shutdownPending:
            handleSack(SackChunk(cumulativeTSNAck: cumulativeTSNAck, advertisedReceiverWindowCredit: UInt32(peerReceiverWindow + flightSize)), now: now)
            state = .shutdownReceived
            maybeSendShutdown(now: now)
        case .shutdownSent:
            // Both sides shut down at once (§9.2): answer with SHUTDOWN ACK.
            state = .shutdownAckSent
            controlChunks.append(.shutdownAck)
            t2Deadline = now + rto.rto
        default: break
        }
    }

    func handleShutdownAck() {
        guard state == .shutdownSent || state == .shutdownAckSent else { return }
        sendRaw([.shutdownComplete(reflectsTag: false)], tag: peerTag)
        close(.shutdown)
    }

    func handleT2(now: Instant) {
        t2Deadline = nil
        if countError() { return }
        rto.backOff()
        switch state {
        case .shutdownSent: controlChunks.append(.shutdown(cumulativeTSNAck: received.cumulative))
        case .shutdownAckSent: controlChunks.append(.shutdownAck)
        default: return
        }
        t2Deadline = now + rto.rto
    }
}

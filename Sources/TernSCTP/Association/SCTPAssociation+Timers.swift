public import TernCore

/// Timer expiry (RFC 9260 §6.3.3 T3-rtx, §6.2 delayed SACK, §8.3 heartbeat, §9.2 T2-shutdown,
/// RFC 6525 §5.1.1 re-configuration timer).
extension SCTPAssociation {
    /// Runs every timer due at `now`. Call when `nextTimeout` has passed.
    public func handleTimeout(now: Instant) {
        guard !terminated else { return }
        burstAllowance = config.effectiveMaxBurst
        if let d = t1Deadline, now >= d { handleT1(now: now) }
        if let d = delayedAckDeadline, now >= d {
            delayedAckDeadline = nil
            if sackNeeded { sackImmediately = true }
        }
        if let d = t3Deadline, now >= d { handleT3(now: now) }
        if terminated { return }
        if let d = t2Deadline, now >= d { handleT2(now: now) }
        if let d = reconfigDeadline, now >= d { handleReconfigTimeout(now: now) }
        if let d = staleFragmentDeadline, now >= d { dropStaleFragments(now: now) }
        if let d = pathMTU.probeDeadline, now >= d { pathMTU.probeTimedOut(now: now) }
        if let d = heartbeatAckDeadline, now >= d {
            heartbeatAckDeadline = nil
            rto.backOff()
            if countError() { return }
        }
        if let d = heartbeatDeadline, now >= d {
            heartbeatDeadline = now + config.heartbeatInterval + rto.rto
            if state == .established, outstanding.isEmpty, heartbeatAckDeadline == nil {
                var info: [UInt8] = []
                info.appendBE(UInt32(truncatingIfNeeded: UInt64(bitPattern: now.nanoseconds) >> 32))
                info.appendBE(UInt32(truncatingIfNeeded: UInt64(bitPattern: now.nanoseconds)))
                controlChunks.append(.heartbeat([.heartbeatInfo(info)]))
                heartbeatAckDeadline = now + rto.rto
            }
        }
    }

    /// Counts a retransmission timeout or lost heartbeat; closes at Association.Max.Retrans (§8.1).
    func countError() -> Bool {
        errorCount += 1
        if errorCount > config.maxRetransmissions {
            close(.peerUnreachable(retransmissions: errorCount - 1))
            return true
        }
        return false
    }

    /// §6.3.3: T3-rtx expired: back off, collapse cwnd, retransmit everything outstanding.
    private func handleT3(now: Instant) {
        t3Deadline = nil
        guard !outstanding.isEmpty else { return }
        if countError() { return }
        stats.retransmissionTimeouts += 1
        rto.backOff()
        ssthresh = max(cwnd / 2, 4 * config.mtu)
        cwnd = config.mtu
        hyStart.finish()
        // RFC 8899 §4.3: a timeout while sending larger packets may be a black hole.
        if config.pathMTUDiscovery { pathMTU.blackHoleSuspected() }
        partialBytesAcked = 0
        inFastRecovery = false
        rttProbe = nil
        var i = 0
        while i < outstanding.count {
            if !outstanding[i].gapAcked, !outstanding[i].abandoned { markForRetransmit(at: i, now: now) }
            i += 1
        }
        updateAdvancedPeerAckPoint()
        t3Deadline = now + rto.rto
    }
}

internal import TernCore

/// SACK processing on the sending side: acknowledgement, fast retransmit, congestion
/// control (RFC 9260 §6.2.1, §7.2) and PR-SCTP abandonment (RFC 3758 §3.5).
extension SCTPAssociation {
    /// Valid gap blocks (1 ≤ start ≤ end, offsets from the cumulative ack) as sorted, disjoint
    /// ranges of offsets.
    static func mergedGapBlocks(_ blocks: [SackChunk.GapBlock]) -> [(start: Int, end: Int)] {
        let valid = blocks.filter { $0.start <= $0.end && $0.start > 0 }
            .map { (start: Int($0.start), end: Int($0.end)) }
            .sorted { $0.start < $1.start }
        var merged: [(start: Int, end: Int)] = []
        for block in valid {
            if let last = merged.last, block.start <= last.end + 1 {
                merged[merged.count - 1].end = max(last.end, block.end)
            } else {
                merged.append(block)
            }
        }
        return merged
    }

    func handleSack(_ sack: SackChunk, now: Instant) {
        guard state != .closed, state != .cookieWait, state != .cookieEchoed else { return }
        let cum = sack.cumulativeTSNAck
        // §6.2.1 D i): ignore a SACK older than the current cumulative ack point.
        guard cumulativeAckPoint.tsnLessOrEqual(cum), cum.tsnLess(nextTSN) else { return }
        let flightBefore = flightSize
        var bytesNewlyAcked = 0
        var cumAdvanced = false
        var highestNewlyAcked: UInt32?
        // When the newest chunk this SACK acknowledges was sent, if it was sent only once (Karn):
        // an RTT sample for slow-start exit.
        var newestSampleSentAt: Instant?

        while let first = outstanding.first, first.chunk.tsn.tsnLessOrEqual(cum) {
            outstanding.removeFirst()
            if first.needsRetransmit { pendingRetransmits -= 1 }
            if first.inFlight { flightSize -= first.size }
            if first.gapAcked {
                gapAckedCount -= 1
            } else if !first.abandoned {
                bytesNewlyAcked += first.size
                highestNewlyAcked = first.chunk.tsn
                newestSampleSentAt = first.transmissions == 1 ? first.lastSent : nil
            }
            if !first.abandoned { queuedBytes -= first.size }
            if let probe = rttProbe, probe.tsn == first.chunk.tsn {
                if first.transmissions == 1 { rto.measure(now - probe.sent) }
                rttProbe = nil
            }
            cumAdvanced = true
        }
        if cumulativeAckPoint.tsnLess(cum) { cumulativeAckPoint = cum }
        if cumAdvanced { errorCount = 0 }

        // Gap ack blocks, merged first: a peer may send up to ~300 of them, overlapping or out
        // of order, and each chunk is walked once per SACK however they overlap.
        let base = cum &+ 1
        let gapBlocks = Self.mergedGapBlocks(sack.gapBlocks)
        var covered = 0
        for block in gapBlocks {
            guard let firstTSN = outstanding.first?.chunk.tsn else { break }
            // Outstanding TSNs are contiguous from `firstTSN`; index = TSN - firstTSN.
            let shift = Int(Int32(bitPattern: base &- firstTSN))
            var i = max(block.start - 1 + shift, 0)
            let end = min(block.end - 1 + shift, outstanding.count - 1)
            covered += max(0, end - i + 1)
            while i <= end {
                if !outstanding[i].gapAcked {
                    outstanding[i].gapAcked = true
                    gapAckedCount += 1
                    clearRetransmit(at: i)
                    if outstanding[i].inFlight {
                        outstanding[i].inFlight = false
                        flightSize -= outstanding[i].size
                    }
                    if !outstanding[i].abandoned {
                        bytesNewlyAcked += outstanding[i].size
                        highestNewlyAcked = outstanding[i].chunk.tsn
                        newestSampleSentAt = outstanding[i].transmissions == 1 ? outstanding[i].lastSent : nil
                    }
                }
                i += 1
            }
        }

        // Every chunk in a block is gap-acked now; more gap-acked chunks than that means the
        // peer reneged on some (RFC 9260 §6.2.1 D iii).
        if gapAckedCount > covered { peerReneged(on: gapBlocks, cumulative: cum) }

        // §7.2.4 fast retransmit with HTNA: only TSNs below the highest newly acked one get a
        // miss indication. Those are the holes between the gap blocks, so only the holes are
        // walked (not every outstanding chunk: with megabytes in flight, walking them all would
        // dominate the cost of each SACK).
        var marked = false
        if let highest = highestNewlyAcked, !gapBlocks.isEmpty, let firstTSN = outstanding.first?.chunk.tsn {
            // Index of the highest newly acked chunk: everything before it that no block covers.
            let limit = min(Int(Int32(bitPattern: highest &- firstTSN)), outstanding.count)
            var holeStart = 0
            for block in gapBlocks {
                guard holeStart < limit else { break }
                let blockStart = Int(Int32(bitPattern: base &+ UInt32(truncatingIfNeeded: block.start) &- firstTSN))
                let holeEnd = min(max(blockStart, holeStart), limit)
                if countMisses(in: holeStart..<holeEnd, now: now) { marked = true }
                holeStart = max(holeStart, Int(Int32(bitPattern: base &+ UInt32(truncatingIfNeeded: block.end) &- firstTSN)) + 1)
            }
        }
        if marked {
            if !inFastRecovery {
                stats.fastRecoveries += 1
                ssthresh = max(cwnd / 2, 4 * config.mtu)
                cwnd = ssthresh
                partialBytesAcked = 0
                inFastRecovery = true
                fastRecoveryExit = nextTSN &- 1
                hyStart.finish()
            }
            fastRetransmitPending = true
        }

        // §7.2.1 / §7.2.2 congestion window growth, only when the cumulative ack advanced.
        if inFastRecovery, fastRecoveryExit.tsnLessOrEqual(cum) { inFastRecovery = false }
        if cumAdvanced, !inFastRecovery, bytesNewlyAcked > 0 {
            // "Fully utilized" (§7.2.1): the last transmission opportunity was limited by cwnd, not
            // by the application. Robust to a batch of SACKs processed before the next poll.
            let fullyUtilized = cwndLimited || flightBefore + config.mtu >= cwnd
            if cwnd <= ssthresh {
                let rtt = newestSampleSentAt.map { now - $0 }
                if hyStart.sackReceived(cumulativeAck: cum, highestSent: nextTSN &- 1, rtt: rtt) {
                    ssthresh = cwnd  // RFC 9406 §4.2: CSS over, congestion avoidance from here
                    stats.slowStartExitsOnDelay += 1
                } else if fullyUtilized {
                    // RFC 9260 §7.2.1 with appropriate byte counting (RFC 3465; L packets of the
                    // size in use per SACK, 2 unless the peer thins its SACKs), slowed down during
                    // HyStart++'s Conservative Slow Start.
                    let limit = max(2, config.slowStartPacketsPerSack) * pathMTU.packetSize
                    cwnd += min(bytesNewlyAcked, limit) / hyStart.growthDivisor
                }
            } else {
                partialBytesAcked += bytesNewlyAcked
                if partialBytesAcked >= cwnd, fullyUtilized {
                    partialBytesAcked -= cwnd
                    cwnd += pathMTU.packetSize  // §7.2.2: one packet (of the size in use) per RTT
                }
            }
        }
        if flightSize == 0 { partialBytesAcked = 0 }

        peerReceiverWindow = max(0, Int(sack.advertisedReceiverWindowCredit) - flightSize)

        // T3-rtx (§6.3.2 R2/R3).
        if outstanding.count > gapAckedCount {
            if cumAdvanced || t3Deadline == nil { t3Deadline = now + rto.rto }
        } else {
            t3Deadline = nil
        }
        updateAdvancedPeerAckPoint()
        if state == .shutdownPending || state == .shutdownReceived { maybeSendShutdown(now: now) }
        maybeStartReset(now: now)
    }

    /// RFC 9260 §6.2.1 D iii: a chunk acknowledged by an earlier gap block that this SACK's
    /// blocks leave out is possibly missing again: no longer acked, one miss indication, and
    /// T3-rtx runs for it (set below in `handleSack`). Only chunks up to the last block count
    /// (or all, in a SACK without blocks): a receiver with more holes than its SACK has room for
    /// reports the first ones only, which is not a renege. Walks every outstanding chunk, only
    /// when a renege is seen.
    private func peerReneged(on gapBlocks: [(start: Int, end: Int)], cumulative: UInt32) {
        guard let firstTSN = outstanding.first?.chunk.tsn else { return }
        let reported = gapBlocks.last?.end ?? Int.max
        var block = 0
        for i in outstanding.indices where outstanding[i].gapAcked {
            let offset = Int(Int32(bitPattern: firstTSN &+ UInt32(truncatingIfNeeded: i) &- cumulative))
            guard offset <= reported else { break }
            while block < gapBlocks.count, gapBlocks[block].end < offset { block += 1 }
            if block < gapBlocks.count, gapBlocks[block].start <= offset { continue }
            outstanding[i].gapAcked = false
            gapAckedCount -= 1
            outstanding[i].missIndications += 1
            stats.renegedByPeer += 1
        }
    }

    /// Adds a miss indication to each unacknowledged chunk at `indices` of `outstanding` (one
    /// hole between gap blocks) and marks those reaching three for fast retransmit (§7.2.4).
    /// Returns whether any was marked.
    private func countMisses(in indices: Range<Int>, now: Instant) -> Bool {
        var marked = false
        for i in indices where !outstanding[i].gapAcked && !outstanding[i].abandoned && !outstanding[i].needsRetransmit {
            outstanding[i].missIndications += 1
            if outstanding[i].missIndications == 3 {
                markForRetransmit(at: i, now: now)
                marked = true
            }
        }
        return marked
    }

    /// Marks an outstanding chunk for retransmission, or abandons its message under PR-SCTP.
    func markForRetransmit(at i: Int, now: Instant) {
        let c = outstanding[i]
        if let maxRtx = c.maxRetransmits, c.transmissions > maxRtx {
            abandonMessage(at: i)
            return
        }
        if let expiry = c.expiry, now >= expiry {
            abandonMessage(at: i)
            return
        }
        if !outstanding[i].needsRetransmit {
            outstanding[i].needsRetransmit = true
            pendingRetransmits += 1
        }
        if outstanding[i].inFlight {
            outstanding[i].inFlight = false
            flightSize -= c.size
        }
        if rttProbe?.tsn == c.chunk.tsn { rttProbe = nil }
    }

    /// RFC 3758 §3.5: abandons every chunk of the message containing `outstanding[i]`, plus
    /// its unsent remainder.
    func abandonMessage(at i: Int) {
        let id = outstanding[i].messageID
        guard peerSupportsForwardTSN else { return }
        stats.abandonedMessages += 1
        var j = i
        while j > 0, outstanding[j - 1].messageID == id { j -= 1 }
        while j < outstanding.count, outstanding[j].messageID == id {
            if !outstanding[j].abandoned {
                outstanding[j].abandoned = true
                clearRetransmit(at: j)
                if outstanding[j].inFlight {
                    outstanding[j].inFlight = false
                    flightSize -= outstanding[j].size
                }
                queuedBytes -= outstanding[j].size  // no longer waiting for an ack
            }
            j += 1
        }
        if let head = sendQueue.head, head.id == id {
            let rest = head.payload.count - head.offset
            queuedBytes -= rest
            decreaseBuffered(stream: head.streamIdentifier, by: rest)
            sendQueue.removeHead()
        }
        forwardTSNPending = true
    }

    /// RFC 3758 §3.5 C: the advanced peer ack point covers leading abandoned chunks.
    func updateAdvancedPeerAckPoint() {
        guard let first = outstanding.first, first.abandoned else {
            forwardTSNPending = false
            return
        }
        forwardTSNPending = true
    }

    /// Builds FORWARD TSN for the leading abandoned chunks (RFC 3758 §3.5 C).
    func makeForwardTSN() -> ForwardTSNChunk? {
        var advanced = cumulativeAckPoint
        var lastSSN: [UInt16: UInt16] = [:]
        var order: [UInt16] = []
        for c in outstanding {
            guard c.abandoned || c.gapAcked else { break }
            if !c.abandoned { break }
            advanced = c.chunk.tsn
            if !c.chunk.isUnordered {
                if lastSSN[c.chunk.streamIdentifier] == nil { order.append(c.chunk.streamIdentifier) }
                lastSSN[c.chunk.streamIdentifier] = c.chunk.streamSequenceNumber
            }
        }
        guard advanced != cumulativeAckPoint else { return nil }
        return ForwardTSNChunk(newCumulativeTSN: advanced, skipped: order.map {
            .init(streamIdentifier: $0, streamSequenceNumber: lastSSN[$0] ?? 0)
        })
    }

    /// Clears a retransmission mark, keeping `pendingRetransmits` in step.
    func clearRetransmit(at i: Int) {
        if outstanding[i].needsRetransmit {
            outstanding[i].needsRetransmit = false
            pendingRetransmits -= 1
        }
    }
}

public import TernCore

/// Packet output: bundling control chunks, retransmissions and new DATA into packets of at
/// most `config.mtu` bytes (RFC 9260 §6.1, §6.10), within cwnd and the peer's window.
extension SCTPAssociation {
    /// The next SCTP packet to send (as the payload of one DTLS record), or nil when there is
    /// nothing to send now. Call repeatedly until nil after every input.
    public func pollTransmit(now: Instant) -> [UInt8]? {
        if let raw = rawPackets.popFirst() {
            stats.packetsSent += 1
            return raw
        }
        guard peerTag != 0, !terminated else { return nil }
        if state == .cookieEchoed, cookieEchoDue, let cookie = pendingCookie { return cookieEchoPacket(cookie, now: now) }
        maybeStartReset(now: now)
        let mtu = config.mtu
        var out = packetHeader()
        var count = 0

        // §6.2: once the window we advertised has opened by a quarter of the buffer, tell the peer.
        if lastAdvertisedWindow < advertisedReceiveWindow - receiveBufferSize / 4, state == .established {
            sackNeeded = true
            sackImmediately = true
        }
        if sackNeeded, sackImmediately || delayedAckDeadline.map({ now >= $0 }) == true || hasDataToSend {
            SCTPChunk.sack(makeSack(room: mtu - out.count)).write(into: &out)
            count += 1
        }
        while let c = controlChunks.first {
            var tmp: [UInt8] = []
            c.write(into: &tmp)
            if out.count + tmp.count > mtu {
                if count > 0 { break }
                // Too large for any packet: a HEARTBEAT ACK or ERROR echoing what a peer sent in
                // an oversized chunk. Sent anyway, it would be a packet DTLS may refuse (and
                // with it the association); it is the peer's chunk that was out of bounds.
                controlChunks.removeFirst()
                stats.oversizedControlChunksDropped += 1
                continue
            }
            controlChunks.removeFirst()
            out.append(contentsOf: tmp)
            count += 1
        }
        let canSendData = state == .established || state == .shutdownPending || state == .shutdownReceived
        if canSendData, forwardTSNPending, let fwd = makeForwardTSN() {
            var tmp: [UInt8] = []
            SCTPChunk.forwardTSN(fwd).write(into: &tmp)
            if out.count + tmp.count <= mtu {
                out.append(contentsOf: tmp)
                count += 1
                forwardTSNPending = false
            }
        }
        // Max.Burst: with nothing in flight no SACK will come to renew the allowance, so a
        // sender gone idle (or whose in-flight data was all abandoned) may always start again.
        if flightSize == 0, burstAllowance == 0 { burstAllowance = config.effectiveMaxBurst }
        let rate = pacingRate
        if let rate { pacer.refill(now: now, bytesPerSecond: rate, depth: pacerDepth) }
        if canSendData, burstAndPacingAllowData {
            var lastDataChunk: Int?  // where the packet's last DATA chunk starts
            count += appendRetransmissions(into: &out, lastChunk: &lastDataChunk, now: now)
            count += appendNewData(into: &out, lastChunk: &lastDataChunk, now: now)
            if let offset = lastDataChunk {
                burstAllowance -= 1
                if rate != nil { pacer.charge(out.count) }
                if wantsImmediateAck { out[offset + 1] |= 0x08 }  // the flags byte
            }
        }
        // A path MTU probe (RFC 8899) goes once nothing else is ready: behind the first DATA of a
        // new association (the DCEP OPEN), which the peer is waiting for.
        guard count > 0 else { return pathMTUProbe(now: now) }
        SCTPPacket.finalize(&out)
        stats.packetsSent += 1
        return out
    }

    private func pathMTUProbe(now: Instant) -> [UInt8]? {
        guard state == .established,
              let size = pathMTU.probeToSend(now: now, nonce: UInt32.random(in: 1...UInt32.max, using: &random))
        else { return nil }
        stats.packetsSent += 1
        return PathMTUProbe.packet(size: size, nonce: pathMTU.probeNonce, header: packetHeader())
    }

    /// COOKIE ECHO first, then DATA (RFC 9260 §5.1 step C allows the bundling): a channel created
    /// before the connection has its DATA_CHANNEL_OPEN at the peer with the cookie, a round trip
    /// before COOKIE ACK would let it go. After a T1 timeout the DATA that went with the lost
    /// COOKIE ECHO goes again with it (the peer takes no DATA before the cookie, and we may send
    /// no other packet until COOKIE ACK). Only streams the INIT ACK granted are sent on; T1
    /// covers the bundle until COOKIE ACK starts T3.
    private func cookieEchoPacket(_ cookie: [UInt8], now: Instant) -> [UInt8] {
        cookieEchoDue = false
        var out = packetHeader()
        SCTPChunk.cookieEcho(cookie).write(into: &out)
        for chunk in outstanding.lazy.map(\.chunk) where out.count + chunk.paddedSize <= config.mtu {
            chunk.write(into: &out)
            stats.retransmittedChunks += 1
        }
        if let head = sendQueue.head, Int(head.streamIdentifier) < outboundStreamCount {
            var lastDataChunk: Int?
            stats.dataChunksBundledWithCookieEcho += appendNewData(into: &out, lastChunk: &lastDataChunk, now: now)
            t3Deadline = nil
        }
        SCTPPacket.finalize(&out)
        stats.packetsSent += 1
        return out
    }

    /// RFC 7053 §4.1: ask for an immediate SACK (the I bit on the packet's last DATA chunk) when
    /// fewer than two full packets are in flight and no more can follow now. The receiver would
    /// otherwise wait for a second packet, or its delayed-ACK timer (200 ms) — as long as our
    /// RTO.Min — and a lone packet in flight (a transfer's start or tail; common once packets are
    /// 16 KiB) would time out and collapse cwnd for nothing.
    private var wantsImmediateAck: Bool {
        flightSize < 2 * pathMTU.packetSize
            && (sendQueue.isEmpty || flightSize >= cwnd || peerReceiverWindow == 0 || burstAllowance == 0)
    }

    var hasDataToSend: Bool {
        guard state == .established || state == .shutdownPending || state == .shutdownReceived else { return false }
        return !sendQueue.isEmpty && flightSize < cwnd && burstAndPacingAllowData
    }

    /// Max.Burst and pacing (`Pacer`) let a DATA packet out now. With nothing in flight pacing
    /// always does (no SACK would come to renew the bucket), and a fast retransmission is not
    /// held back by it.
    private var burstAndPacingAllowData: Bool {
        let idleExemption = flightSize == 0 && sendRateLimit == nil
        return burstAllowance > 0 && (idleExemption || fastRetransmitPending || pacingRate == nil || pacer.mayRelease)
    }

    /// The pacer's bucket: Max.Burst packets of the size in use (saturating: Max.Burst may be
    /// configured huge to turn the limit off); under a `sendRateLimit`, at most 20 ms of it
    /// (and at least one packet), so a limited sender does not start with a window's burst.
    private var pacerDepth: Int {
        let product = config.effectiveMaxBurst.multipliedReportingOverflow(by: pathMTU.packetSize)
        let depth = product.overflow ? Int.max / 2 : product.partialValue
        guard let limit = sendRateLimit else { return depth }
        let limited = limit * Self.limitedBurstSeconds
        return min(depth, max(pathMTU.packetSize, limited >= Double(depth) ? depth : Int(limited)))
    }

    static let limitedBurstSeconds = 0.02

    private func appendRetransmissions(into out: inout [UInt8], lastChunk: inout Int?, now: Instant) -> Int {
        var added = 0
        let bypassCwnd = fastRetransmitPending
        fastRetransmitPending = false
        guard pendingRetransmits > 0 else { return 0 }
        var i = 0
        while i < outstanding.count, pendingRetransmits > 0 {
            defer { i += 1 }
            guard outstanding[i].needsRetransmit else { continue }
            if !bypassCwnd, flightSize >= cwnd { break }
            let c = outstanding[i]
            if let expiry = c.expiry, now >= expiry {
                abandonMessage(at: i)
                continue
            }
            guard out.count + c.chunk.paddedSize <= pathMTU.packetSize else { break }
            lastChunk = out.count
            c.chunk.write(into: &out)
            clearRetransmit(at: i)
            outstanding[i].inFlight = true
            outstanding[i].transmissions += 1
            outstanding[i].lastSent = now
            outstanding[i].missIndications = 0
            flightSize += c.size
            stats.retransmittedChunks += 1
            added += 1
        }
        if added > 0, t3Deadline == nil { t3Deadline = now + rto.rto }
        return added
    }

    private func appendNewData(into out: inout [UInt8], lastChunk: inout Int?, now: Instant) -> Int {
        var added = 0
        // Chunks are cut to fit a base-size packet; packets bundle them up to the discovered size.
        let maxFragment = config.mtu - SCTPPacket.headerSize - DataChunk.headerSize
        let packetLimit = pathMTU.packetSize
        var rotations = 0
        cwndLimited = false  // set again below if this attempt stops at cwnd
        while var head = sendQueue.head {
            // §6.1 A/B: respect the peer's window (one chunk may probe a zero window with
            // nothing in flight) and cwnd (may be exceeded by at most one packet).
            guard flightSize < cwnd else {
                cwndLimited = true
                break
            }
            if head.offset == 0, let expiry = head.expiry, now >= expiry {
                // Timed PR-SCTP: never sent, simply dropped.
                sendQueue.removeHead()
                queuedBytes -= head.payload.count
                decreaseBuffered(stream: head.streamIdentifier, by: head.payload.count)
                stats.abandonedMessages += 1
                continue
            }
            if head.offset == 0, outstandingReset?.streams.contains(head.streamIdentifier) == true {
                // RFC 6525 §5.1.2: hold new data of a stream being reset; serve the others.
                rotations += 1
                if rotations > sendQueue.streamCount { break }
                sendQueue.rotate()
                continue
            }
            let remaining = head.payload.count - head.offset
            let size = min(remaining, maxFragment)
            guard peerReceiverWindow >= size || flightSize == 0 else { break }
            let room = packetLimit - out.count - DataChunk.headerSize
            // A fragment that does not fit after other chunks goes in the next packet, full size.
            if room < size, out.count > SCTPPacket.headerSize { break }
            let take = min(size, room)
            guard take > 0 else { break }
            if head.offset == 0, !head.options.unordered {
                head.ssn = nextSSN[head.streamIdentifier, default: 0]
                nextSSN[head.streamIdentifier] = head.ssn &+ 1
            }
            let begin = head.offset == 0
            let end = head.offset + take == head.payload.count
            let chunk = DataChunk(tsn: nextTSN, streamIdentifier: head.streamIdentifier,
                                  streamSequenceNumber: head.options.unordered ? 0 : head.ssn,
                                  payloadProtocolIdentifier: head.payloadProtocolIdentifier,
                                  userData: head.payload[head.offset..<(head.offset + take)],
                                  unordered: head.options.unordered, beginning: begin, ending: end)
            lastChunk = out.count
            chunk.write(into: &out)
            outstanding.append(OutstandingChunk(chunk: chunk, messageID: head.id, maxRetransmits: head.options.maxRetransmits,
                                                expiry: head.expiry, lastSent: now))
            if rttProbe == nil { rttProbe = (nextTSN, now) }
            nextTSN &+= 1
            flightSize += take
            peerReceiverWindow = max(0, peerReceiverWindow - take)
            head.offset += take
            if end { sendQueue.removeHead() } else { sendQueue.updateHead(head) }
            decreaseBuffered(stream: head.streamIdentifier, by: take)
            added += 1
        }
        if added > 0, t3Deadline == nil { t3Deadline = now + rto.rto }
        return added
    }

    /// Lowers a stream's unsent byte count and reports crossing its low threshold.
    func decreaseBuffered(stream: UInt16, by bytes: Int) {
        let before = streamBuffered[stream] ?? 0
        let after = max(0, before - bytes)
        if after == 0 { streamBuffered[stream] = nil } else { streamBuffered[stream] = after }
        let threshold = lowThreshold[stream] ?? 0
        if before > threshold, after <= threshold { events.append(.bufferedAmountLow(streamIdentifier: stream)) }
    }
}

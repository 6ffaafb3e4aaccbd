public import TernCore

/// Packet input: verification, chunk dispatch and the DATA receive path (RFC 9260 §6.2, §8.5).
extension SCTPAssociation {
    /// Handles one received SCTP packet (the payload of one DTLS record).
    ///
    /// Malformed packets and packets with a wrong verification tag are counted in `stats` and
    /// dropped; this never traps on network input.
    public func handle(packet bytes: [UInt8], now: Instant) {
        guard !terminated else { return }
        let packet: SCTPPacket
        do {
            packet = try SCTPPacket.parse(bytes)
        } catch {
            stats.malformedPackets += 1
            return
        }
        guard packet.sourcePort == config.remotePort, packet.destinationPort == config.localPort else {
            stats.malformedPackets += 1
            return
        }
        guard verifyTag(packet) else {
            stats.badVerificationTag += 1
            return
        }
        stats.packetsReceived += 1
        burstAllowance = config.effectiveMaxBurst
        let cumulativeBefore = received.cumulative
        var sawData = false
        var arrival = DataArrival()
        chunkLoop: for chunk in packet.chunks {
            guard !terminated else { return }
            switch chunk {
            case let .data(d):
                guard state == .established || state == .shutdownPending || state == .shutdownSent else { continue }
                sawData = true
                handleData(d, arrival: &arrival)
            case let .initiation(i):
                // RFC 9260 §6.10: INIT must be alone in its packet.
                guard packet.chunks.count == 1 else { break chunkLoop }
                handleInit(i, now: now)
            case let .initiationAck(i): handleInitAck(i, now: now)
            case let .cookieEcho(c):
                guard handleCookieEcho(c, packetTag: packet.verificationTag, now: now) else { break chunkLoop }
            case .cookieAck: handleCookieAck(now: now)
            case let .sack(s): handleSack(s, now: now)
            case let .forwardTSN(f): handleForwardTSN(f)
            case let .heartbeat(params):
                controlChunks.append(.heartbeatAck(params))
            case let .heartbeatAck(params): handleHeartbeatAck(params, now: now)
            case let .abort(_, causes):
                let text = causes.isEmpty ? "no cause given" : causes.map(\.description).joined(separator: "; ")
                close(.peerAbort(text))
                return
            case let .error(causes):
                if causes.contains(where: { $0.code == SCTPErrorCause.staleCookie }) { handleStaleCookie(now: now) }
                events.append(.peerError(causes))
            case let .shutdown(cum): handleShutdown(cumulativeTSNAck: cum, now: now)
            case .shutdownAck: handleShutdownAck()
            case .shutdownComplete:
                if state == .shutdownAckSent { close(.shutdown) }
            case let .reconfig(params): handleReconfig(params, now: now)
            case let .unknown(type, flags, value):
                // RFC 9260 §3.2: the upper two bits say what to do with an unknown chunk.
                if type & 0x40 != 0 {
                    var raw: [UInt8] = []
                    SCTPChunk.unknown(type: type, flags: flags, value: value).write(into: &raw)
                    controlChunks.append(.error([SCTPErrorCause(code: SCTPErrorCause.unrecognizedChunkType, value: raw)]))
                }
                if type & 0x80 == 0 { break chunkLoop }
            }
        }
        // §6.2: a packet of duplicates only MUST be acknowledged at once; duplicates bundled with
        // new DATA MAY be, and are not: a peer retransmitting into a full socket would otherwise
        // get one SACK per packet back, and the SACKs fill the same socket.
        if arrival.duplicates, !arrival.newData { sackImmediately = true }
        if sawData { noteDataPacket(now: now) }
        watchForStaleFragments(cumulativeBefore: cumulativeBefore, now: now)
        // SACK now rather than at the next poll: a caller that reads a batch of packets before
        // polling would otherwise produce one stretch ACK per batch, and cwnd grows per SACK.
        if sackImmediately, !terminated, peerTag != 0 {
            sendRaw([.sack(makeSack(room: config.mtu - SCTPPacket.headerSize))], tag: peerTag)
        }
        lastActivity = now
    }

    /// Starts the stale-fragment clock when fragments are held past a hole, restarts it whenever
    /// the cumulative TSN moves, stops it when nothing waits.
    private func watchForStaleFragments(cumulativeBefore: UInt32, now: Instant) {
        guard let timeout = config.staleFragmentTimeout, received.hasGaps, reassembly.fragmentCount > 0 else {
            staleFragmentDeadline = nil
            return
        }
        if staleFragmentDeadline == nil || received.cumulative != cumulativeBefore { staleFragmentDeadline = now + timeout }
    }

    /// RFC 9260 §6.2: a receiver may renege on gap-acked data. The fragments held past a
    /// cumulative TSN that has not moved for `staleFragmentTimeout` are dropped and left out of
    /// the SACK sent now; a sender that is still there sends them again with the hole.
    func dropStaleFragments(now: Instant) {
        staleFragmentDeadline = nil
        let dropped = reassembly.dropFragments(after: received.cumulative)
        guard !dropped.isEmpty else { return }
        received.remove(dropped)
        stats.renegedFragments += dropped.count
        if peerTag != 0 { sendRaw([.sack(makeSack(room: config.mtu - SCTPPacket.headerSize))], tag: peerTag) }
    }

    /// RFC 9260 §8.5 / §8.5.1 verification tag rules.
    private func verifyTag(_ packet: SCTPPacket) -> Bool {
        guard let first = packet.chunks.first else { return false }
        switch first {
        case .initiation: return packet.verificationTag == 0
        case .cookieEcho: return true  // Checked against the cookie's tag.
        case let .abort(t, _), let .shutdownComplete(t):
            return packet.verificationTag == (t ? peerTag : localTag) && (peerTag != 0 || !t)
        case .initiationAck: return packet.verificationTag == localTag
        default: return packet.verificationTag == localTag && state != .closed
        }
    }

    /// What the DATA chunks of one packet were, for the SACK rules of §6.2.
    private struct DataArrival {
        var duplicates = false
        var newData = false
    }

    private func handleData(_ chunk: DataChunk, arrival: inout DataArrival) {
        let tsn = chunk.tsn
        if received.contains(tsn) {
            stats.duplicateDataChunks += 1
            if duplicateTSNs.count < 32 { duplicateTSNs.append(tsn) }
            arrival.duplicates = true
            sackNeeded = true
            return
        }
        // Receiver window (§6.2): beyond it, only the next in-order TSN is accepted (a zero-window
        // probe), and nothing at all past a hard cap, so a peer ignoring a_rwnd cannot exhaust memory.
        let charge = chunk.isBeginning && chunk.isEnding ? chunk.userData.count : StreamReassembly.charge(chunk)
        let wouldBuffer = reassembly.bufferedBytes + undeliveredBytes + applicationBacklogBytes + charge
        if wouldBuffer > receiveBufferSize,
           tsn != received.cumulative &+ 1 || wouldBuffer > receiveBufferSize + config.maxMessageSize {
            stats.dataChunksBeyondWindow += 1
            sackImmediately = true
            sackNeeded = true
            return
        }
        // Bound the fragments held, whatever their size (tiny fragments are charged their
        // bookkeeping, but memory is bounded by count too); refused ones are not acknowledged.
        if reassembly.refuses(chunk) {
            stats.fragmentsRefused += 1
            sackImmediately = true
            sackNeeded = true
            return
        }
        // Bound the gap bookkeeping: a hostile peer scattering TSNs cannot make it grow without limit.
        if received.ranges.count >= 8192, tsn != received.cumulative &+ 1 {
            sackImmediately = true
            sackNeeded = true
            return
        }
        _ = received.insert(tsn)
        arrival.newData = true
        // RFC 9260 §6.5: DATA for a stream we do not have is acknowledged, reported and dropped.
        guard Int(chunk.streamIdentifier) < inboundStreamCount else {
            var cause: [UInt8] = []
            cause.appendBE(chunk.streamIdentifier)
            cause.appendBE(UInt16(0))
            controlChunks.append(.error([SCTPErrorCause(code: SCTPErrorCause.invalidStreamIdentifier, value: cause)]))
            sackNeeded = true
            return
        }
        var delivered: [SCTPMessage] = []
        reassembly.insert(chunk, deliver: &delivered)
        for m in delivered {
            undeliveredBytes += m.payload.count
            events.append(.message(m))
        }
        sackNeeded = true
        if received.hasGaps || chunk.isImmediate { sackImmediately = true }
    }

    /// §6.2: SACK at least every second packet with DATA (every `sackEveryPackets`-th with ACK
    /// thinning, then within `thinnedSackDelay` of the second), else within the delayed-ack timeout.
    private func noteDataPacket(now: Instant) {
        packetsSinceSack += 1
        let every = max(2, config.sackEveryPackets)
        if packetsSinceSack >= every { sackImmediately = true }
        if !sackImmediately {
            if delayedAckDeadline == nil { delayedAckDeadline = now + config.delayedAckTimeout }
            if packetsSinceSack >= 2, let due = delayedAckDeadline {
                delayedAckDeadline = min(due, now + config.thinnedSackDelay)
            }
        }
        checkDeferredReset()
    }

    /// RFC 3758 §3.6: move the cumulative TSN, skip abandoned messages.
    private func handleForwardTSN(_ chunk: ForwardTSNChunk) {
        guard state == .established || state == .shutdownPending || state == .shutdownSent else { return }
        sackNeeded = true
        sackImmediately = true
        guard received.cumulative.tsnLess(chunk.newCumulativeTSN) else { return }
        received.forward(to: chunk.newCumulativeTSN)
        var delivered: [SCTPMessage] = []
        reassembly.forward(to: chunk.newCumulativeTSN, skipped: chunk.skipped, deliver: &delivered)
        for m in delivered {
            undeliveredBytes += m.payload.count
            events.append(.message(m))
        }
        // The skipped TSNs may complete a deferred stream reset (RFC 6525 §5.2.2).
        checkDeferredReset()
    }

    /// Builds the SACK for the current receive state (§3.3.4).
    func makeSack(room: Int) -> SackChunk {
        let window = advertisedReceiveWindow
        lastAdvertisedWindow = window
        let maxBlocks = max(0, (room - 16) / 4 - duplicateTSNs.count)
        let sack = SackChunk(cumulativeTSNAck: received.cumulative, advertisedReceiverWindowCredit: UInt32(window),
                             gapBlocks: received.gapBlocks(limit: min(maxBlocks, 64)),
                             duplicateTSNs: duplicateTSNs)
        duplicateTSNs.removeAll()
        sackNeeded = false
        sackImmediately = false
        packetsSinceSack = 0
        delayedAckDeadline = nil
        return sack
    }

    private func handleHeartbeatAck(_ params: [SCTPParameter], now: Instant) {
        for case let .heartbeatInfo(info) in params {
            if let nonce = PathMTUProbe.nonce(inHeartbeatInfo: info) {
                pathMTU.probeAcknowledged(nonce: nonce)
                return  // a probe says nothing about reachability at the base size
            }
        }
        heartbeatAckDeadline = nil
        errorCount = 0
        for case let .heartbeatInfo(info) in params where info.count == 8 {
            var r = ByteReader(info)
            if let sent = try? r.readUInt64() {
                let rtt = now - Instant(nanoseconds: Int64(bitPattern: sent))
                if rtt >= .zero { rto.measure(rtt) }
            }
        }
    }
}

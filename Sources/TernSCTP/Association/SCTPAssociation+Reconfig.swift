public import TernCore

/// Stream reconfiguration (RFC 6525): outgoing SSN reset, used to close data channels
/// (RFC 8831 §6.7).
extension SCTPAssociation {
    /// Asks the peer to reset the incoming side of `streams` after every message already queued
    /// on them has been sent. Completion is reported as `.outgoingStreamsReset`.
    public func resetStreams(_ streams: [UInt16], now: Instant) {
        for s in streams where !pendingResetStreams.contains(s) { pendingResetStreams.append(s) }
        maybeStartReset(now: now)
    }

    /// Sends the pending reset request once its streams have nothing left to send (§5.1.2).
    func maybeStartReset(now: Instant) {
        guard state == .established, outstandingReset == nil, !pendingResetStreams.isEmpty, peerSupportsReconfig else { return }
        let ready = pendingResetStreams.filter { s in
            !sendQueue.contains(stream: s)
        }
        guard !ready.isEmpty else { return }
        pendingResetStreams.removeAll { ready.contains($0) }
        let request = OutgoingSSNResetRequest(requestSequence: nextReconfigRequestSequence,
                                              responseSequence: peerNextReconfigRequestSequence &- 1,
                                              senderLastTSN: nextTSN &- 1, streams: ready)
        nextReconfigRequestSequence &+= 1
        outstandingReset = request
        controlChunks.append(.reconfig([.outgoingSSNResetRequest(request)]))
        reconfigDeadline = now + rto.rto
    }

    func handleReconfigTimeout(now: Instant) {
        reconfigDeadline = nil
        guard let request = outstandingReset else { return }
        if countError() { return }
        controlChunks.append(.reconfig([.outgoingSSNResetRequest(request)]))
        reconfigDeadline = now + rto.rto
    }

    func handleReconfig(_ params: [SCTPParameter], now: Instant) {
        guard state == .established || state == .shutdownPending else { return }
        for param in params {
            switch param {
            case let .outgoingSSNResetRequest(request): handleIncomingResetRequest(request)
            case let .incomingSSNResetRequest(seq, _):
                // We never ask the peer to reset our outgoing streams this way; decline politely.
                respond(to: seq, result: .denied)
            case let .reconfigResponse(response): handleReconfigResponse(response, now: now)
            default: break
            }
        }
    }

    private func respond(to seq: UInt32, result: ReconfigResponse.Result) {
        if seq == peerNextReconfigRequestSequence {
            peerNextReconfigRequestSequence &+= 1
            let r = ReconfigResponse(responseSequence: seq, result: result)
            lastReconfigResponse = r
            controlChunks.append(.reconfig([.reconfigResponse(r)]))
        } else if seq == peerNextReconfigRequestSequence &- 1, let last = lastReconfigResponse {
            controlChunks.append(.reconfig([.reconfigResponse(last)]))
        } else {
            controlChunks.append(.reconfig([.reconfigResponse(.init(responseSequence: seq, result: .errorBadSequenceNumber))]))
        }
    }

    /// RFC 6525 §5.2.2: reset our incoming streams once everything up to the sender's last TSN arrived.
    private func handleIncomingResetRequest(_ request: OutgoingSSNResetRequest) {
        if request.requestSequence == peerNextReconfigRequestSequence &- 1, let last = lastReconfigResponse,
           last.responseSequence == request.requestSequence, deferredIncomingReset == nil {
            controlChunks.append(.reconfig([.reconfigResponse(last)]))  // retransmitted request
            return
        }
        if let deferred = deferredIncomingReset, deferred.requestSequence == request.requestSequence {
            if checkDeferredReset() { return }
            controlChunks.append(.reconfig([.reconfigResponse(.init(responseSequence: request.requestSequence, result: .inProgress))]))
            return
        }
        guard request.requestSequence == peerNextReconfigRequestSequence else {
            controlChunks.append(.reconfig([.reconfigResponse(.init(responseSequence: request.requestSequence,
                                                                     result: .errorBadSequenceNumber))]))
            return
        }
        peerNextReconfigRequestSequence &+= 1
        if request.senderLastTSN.tsnLessOrEqual(received.cumulative) {
            performIncomingReset(request)
            let r = ReconfigResponse(responseSequence: request.requestSequence, result: .successPerformed)
            lastReconfigResponse = r
            controlChunks.append(.reconfig([.reconfigResponse(r)]))
        } else {
            deferredIncomingReset = request
            lastReconfigResponse = ReconfigResponse(responseSequence: request.requestSequence, result: .successPerformed)
            controlChunks.append(.reconfig([.reconfigResponse(.init(responseSequence: request.requestSequence, result: .inProgress))]))
        }
    }

    func performIncomingReset(_ request: OutgoingSSNResetRequest) {
        reassembly.resetStreams(request.streams)
        events.append(.incomingStreamsReset(request.streams))
    }

    private func handleReconfigResponse(_ response: ReconfigResponse, now: Instant) {
        guard let request = outstandingReset, response.responseSequence == request.requestSequence else { return }
        switch response.result {
        case .successPerformed, .successNothingToDo:
            outstandingReset = nil
            reconfigDeadline = nil
            for s in request.streams { nextSSN[s] = nil }
            events.append(.outgoingStreamsReset(request.streams))
            maybeStartReset(now: now)
        case .inProgress:
            reconfigDeadline = now + rto.rto  // Retry the same request after an RTO.
        default:
            // Denied or errored: give up on this request; report the streams as not reset by closing
            // nothing further. The caller sees no `.outgoingStreamsReset` for them.
            outstandingReset = nil
            reconfigDeadline = nil
            maybeStartReset(now: now)
        }
    }

    /// Performs a deferred incoming reset once every TSN up to its last TSN has arrived or been
    /// skipped, and answers it (RFC 6525 §5.2.2). Returns whether it did.
    @discardableResult
    func checkDeferredReset() -> Bool {
        guard let deferred = deferredIncomingReset, deferred.senderLastTSN.tsnLessOrEqual(received.cumulative) else {
            return false
        }
        deferredIncomingReset = nil
        performIncomingReset(deferred)
        controlChunks.append(.reconfig([.reconfigResponse(.init(responseSequence: deferred.requestSequence,
                                                                 result: .successPerformed))]))
        return true
    }
}

internal import TernCore

/// Turning association events into channel state and events.
extension DataChannelEndpoint {
    func processAssociationEvents(now: Instant) {
        while let event = association.pollEvent() {
            switch event {
            case .connected:
                connected = true
                events.append(.connected)
                for id in channels.keys.sorted() where !(channels[id]?.announced ?? true) {
                    if channels[id]?.info.readyState == .closing {
                        association.resetStreams([id], now: now)  // closed while its OPEN waited
                    } else {
                        announce(id, now: now)
                    }
                }
            case let .message(m): handleMessage(m, now: now)
            case let .bufferedAmountLow(sid):
                if channels[sid]?.info.readyState == .open { events.append(.bufferedAmountLow(channelId: sid)) }
            case let .incomingStreamsReset(streams):
                for sid in streams { handleIncomingReset(sid, now: now) }
            case let .outgoingStreamsReset(streams):
                for sid in streams {
                    guard var ch = channels[sid] else { continue }
                    ch.outgoingReset = true
                    channels[sid] = ch
                    if ch.incomingReset { finishClose(sid, reason: ch.closedByPeer ? "closed by peer" : "closed") }
                }
            case .restarted:
                for id in channels.keys.sorted() { finishClose(id, reason: "SCTP association restarted by peer") }
            case .peerError:
                break
            case let .closed(reason):
                connected = false
                for id in channels.keys.sorted() { finishClose(id, reason: reason.description) }
                events.append(.associationClosed(reason))
            }
        }
    }

    /// Queues DATA_CHANNEL_OPEN (RFC 8832 §6) on the association, once; before the association
    /// is up it waits there and leaves with the COOKIE ECHO. Returns false when the channel
    /// closed because the association refused it.
    @discardableResult
    func queueOpen(_ id: UInt16, now: Instant) -> Bool {
        guard var ch = channels[id] else { return false }
        guard !ch.info.negotiated, !ch.openQueued else { return true }
        let open = DCEPOpen(channelType: DataChannelInit(ordered: ch.info.ordered, maxRetransmits: ch.info.maxRetransmits,
                                                         maxPacketLifeTime: ch.info.maxPacketLifeTime).channelType,
                            priority: ch.info.priority,
                            reliabilityParameter: UInt32(ch.info.maxRetransmits ?? ch.info.maxPacketLifeTime ?? 0),
                            label: ch.info.label, protocol: ch.info.protocol)
        do {
            try association.send(DCEPMessage.open(open).serialize(), streamIdentifier: id,
                                 payloadProtocolIdentifier: DataChannelPPID.dcep, now: now)
        } catch {
            finishClose(id, reason: "could not send DATA_CHANNEL_OPEN: \(error)")
            return false
        }
        ch.openQueued = true
        channels[id] = ch
        return true
    }

    /// Reports the channel open (W3C: the opener's channel is open once the association is up),
    /// its DATA_CHANNEL_OPEN queued if it was not already.
    func announce(_ id: UInt16, now: Instant) {
        guard let waiting = channels[id], !waiting.announced, waiting.info.readyState == .connecting,
              queueOpen(id, now: now), var ch = channels[id] else { return }
        ch.announced = true
        ch.info.readyState = .open
        channels[id] = ch
        events.append(.channelOpened(ch.info))
    }

    private func handleMessage(_ m: SCTPMessage, now: Instant) {
        let sid = m.streamIdentifier
        switch m.payloadProtocolIdentifier {
        case DataChannelPPID.dcep:
            handleDCEP(m, now: now)
        case DataChannelPPID.string, DataChannelPPID.binary, DataChannelPPID.stringEmpty, DataChannelPPID.binaryEmpty:
            guard var ch = channels[sid], ch.info.readyState == .open || ch.info.readyState == .closing else {
                events.append(.messageRejected(channelId: sid, reason: "message on a stream with no open channel"))
                return
            }
            // RFC 8832 §6: any data on the stream implies the peer saw our OPEN.
            ch.awaitingAck = false
            channels[sid] = ch
            let before = events.count
            defer {
                if events.count > before, case let .message(_, delivered)? = events.last {
                    messageBacklog += delivered.byteCount
                    association.applicationBacklogBytes = messageBacklog
                }
            }
            switch m.payloadProtocolIdentifier {
            case DataChannelPPID.string:
                guard let text = String(validating: m.payload, as: UTF8.self) else {
                    events.append(.messageRejected(channelId: sid, reason: "string message is not valid UTF-8"))
                    return
                }
                events.append(.message(channelId: sid, .string(text)))
            case DataChannelPPID.binary: events.append(.message(channelId: sid, .binary(m.payload)))
            case DataChannelPPID.stringEmpty: events.append(.message(channelId: sid, .string("")))
            default: events.append(.message(channelId: sid, .binary([])))
            }
        case DataChannelPPID.stringPartial, DataChannelPPID.binaryPartial:
            events.append(.messageRejected(channelId: sid, reason:
                "deprecated partial-message PPID \(m.payloadProtocolIdentifier) (RFC 8831 §8) is not supported"))
        default:
            events.append(.messageRejected(channelId: sid, reason: "unknown PPID \(m.payloadProtocolIdentifier)"))
        }
    }

    private func handleDCEP(_ m: SCTPMessage, now: Instant) {
        let sid = m.streamIdentifier
        let message: DCEPMessage
        do {
            message = try DCEPMessage.parse(m.payload)
        } catch {
            events.append(.messageRejected(channelId: sid, reason: error.description))
            return
        }
        switch message {
        case .ack:
            if var ch = channels[sid] {
                ch.awaitingAck = false
                channels[sid] = ch
            }
        case let .open(open):
            if let existing = channels[sid] {
                handleRepeatedOpen(open, on: existing, now: now)
                return
            }
            let info = Self.channelInfo(opening: open, on: sid)
            channels[sid] = Channel(info: info, announced: true, awaitingAck: false)
            do {
                try association.send(DCEPMessage.ack.serialize(), streamIdentifier: sid,
                                     payloadProtocolIdentifier: DataChannelPPID.dcep, now: now)
            } catch {
                finishClose(sid, reason: "could not send DATA_CHANNEL_ACK: \(error)")
                return
            }
            events.append(.channelOpened(info))
        }
    }

    /// A DATA_CHANNEL_OPEN for a stream that already has a channel. GStreamer 1.22's webrtcbin
    /// sends the OPEN of a channel created after the association is up twice (two DATA chunks,
    /// same stream, label and parameters): that repeat is acknowledged again and otherwise
    /// ignored. Any other OPEN on a stream in use (different parameters, or a stream we opened
    /// ourselves) is refused and counted, and the channel already there goes on: RFC 8832 gives
    /// a second OPEN no meaning, and tearing the channel down would let a peer close it at will.
    private func handleRepeatedOpen(_ open: DCEPOpen, on existing: Channel, now: Instant) {
        let sid = existing.info.id
        var opened = existing.info
        opened.bufferedAmount = 0
        guard opened.openedByPeer, opened.readyState == .open, opened == Self.channelInfo(opening: open, on: sid) else {
            conflictingOpensRefused += 1
            return
        }
        repeatedOpensAcknowledged += 1
        try? association.send(DCEPMessage.ack.serialize(), streamIdentifier: sid,
                              payloadProtocolIdentifier: DataChannelPPID.dcep, now: now)
    }

    /// The channel a DATA_CHANNEL_OPEN describes (RFC 8832 §5.1), as the peer opened it.
    private static func channelInfo(opening open: DCEPOpen, on sid: UInt16) -> DataChannelInfo {
        let rexmit = open.channelType == .partialReliableRexmit || open.channelType == .partialReliableRexmitUnordered
        let timed = open.channelType == .partialReliableTimed || open.channelType == .partialReliableTimedUnordered
        return DataChannelInfo(
            id: sid, label: open.label, protocol: open.protocol, ordered: !open.channelType.isUnordered,
            maxRetransmits: rexmit ? UInt16(clamping: open.reliabilityParameter) : nil,
            maxPacketLifeTime: timed ? UInt16(clamping: open.reliabilityParameter) : nil,
            negotiated: false, priority: open.priority, readyState: .open, bufferedAmount: 0, openedByPeer: true)
    }

    /// The peer reset its outgoing stream: close our side too (RFC 8831 §6.7).
    private func handleIncomingReset(_ sid: UInt16, now: Instant) {
        guard var ch = channels[sid] else { return }
        ch.incomingReset = true
        if ch.info.readyState == .open || ch.info.readyState == .connecting {
            ch.closedByPeer = true
            ch.info.readyState = .closing
            channels[sid] = ch
            association.resetStreams([sid], now: now)
            return
        }
        channels[sid] = ch
        if ch.outgoingReset { finishClose(sid, reason: "closed") }
    }

    func finishClose(_ id: UInt16, reason: String) {
        guard channels.removeValue(forKey: id) != nil else { return }
        events.append(.channelClosed(channelId: id, reason: reason))
    }
}

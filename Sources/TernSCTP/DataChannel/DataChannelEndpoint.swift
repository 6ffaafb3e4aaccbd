internal import DequeModule
public import TernCore

/// Sans-I/O WebRTC data channels (RFC 8831) with DCEP (RFC 8832) on top of an `SCTPAssociation`.
///
/// Opens, accepts and closes channels, maps SCTP messages to channel messages by PPID, and tracks
/// each channel's W3C readyState and bufferedAmount. The transport calls are the association's:
/// `handle(packet:now:)`, `handleTimeout(now:)`, `pollTransmit(now:)`, `nextTimeout`; results come
/// out of `pollEvent()`. A W3C-shaped async `RTCDataChannel` is built above this by the peer
/// connection layer.
///
/// Driving loop (one task owns the endpoint; `dtls` is the DTLS transport):
/// ```swift
/// endpoint.connect(now: clock.now())          // both peers do this (RFC 8841 §9.3)
/// on DTLS application data `p`:  endpoint.handle(packet: p, now: clock.now())
/// on timer (endpoint.nextTimeout): endpoint.handleTimeout(now: clock.now())
/// after each of the above, and after draining events:
///     while let p = endpoint.pollTransmit(now: clock.now()) { dtls.send(p) }
///     while let e = endpoint.pollEvent() { dispatch(e) }
/// ```
public final class DataChannelEndpoint {
    /// The SCTP association underneath.
    public let association: SCTPAssociation
    /// DTLS role: decides the parity of locally allocated stream ids.
    public let role: DTLSRole
    /// The peer's max-message-size (RFC 8841 §6, SDP `a=max-message-size`); larger sends are refused.
    public var remoteMaxMessageSize: Int

    struct Channel {
        var info: DataChannelInfo
        /// DCEP OPEN sent (or not needed) — data may flow.
        var announced: Bool
        /// DATA_CHANNEL_OPEN queued on the association (before it is up, so that it can travel
        /// with the COOKIE ECHO).
        var openQueued = false
        /// Locally opened, non-negotiated channel still waiting for DATA_CHANNEL_ACK: send ordered.
        var awaitingAck: Bool
        var outgoingReset = false
        var incomingReset = false
        var closedByPeer = false
    }

    var channels: [UInt16: Channel] = [:]
    /// DATA_CHANNEL_OPENs repeated for an open channel with the same parameters, acknowledged
    /// again and otherwise ignored (GStreamer 1.22 sends each OPEN twice).
    public internal(set) var repeatedOpensAcknowledged = 0
    /// DATA_CHANNEL_OPENs for a stream in use with other parameters, or on a stream this side
    /// opened: refused, the channel already there left as it is.
    public internal(set) var conflictingOpensRefused = 0
    var events = Deque<DataChannelEvent>()
    var connected = false
    /// Bytes of `.message` events queued here.
    var messageBacklog = 0

    /// The peer's INIT from its description (SNAP), when both descriptions carried one.
    public var peerInit: InitChunk?

    /// Creates an endpoint. `remoteMaxMessageSize` defaults to 256 KiB; pass the SDP value.
    /// With SNAP (draft-hancke-tsvwg-snap), `localInit` is the INIT our description carried and
    /// `peerInit` the peer's: `connect` then establishes the association without a handshake.
    public init(role: DTLSRole, config: SCTPAssociationConfig = SCTPAssociationConfig(),
                remoteMaxMessageSize: Int = 256 * 1024, localInit: InitChunk? = nil, peerInit: InitChunk? = nil) {
        self.role = role
        self.association = SCTPAssociation(config: config, localInit: localInit)
        self.remoteMaxMessageSize = remoteMaxMessageSize
        self.peerInit = peerInit
    }

    /// Starts the SCTP handshake (both WebRTC peers do this; the collision is handled), or, when
    /// both descriptions carried an INIT, establishes the association at once.
    public func connect(now: Instant) {
        if let peerInit {
            association.connect(peerInit: peerInit, now: now)
            processAssociationEvents(now: now)
        } else {
            association.connect(now: now)
        }
    }

    /// Feeds one received SCTP packet.
    public func handle(packet: [UInt8], now: Instant) {
        association.handle(packet: packet, now: now)
        processAssociationEvents(now: now)
    }

    /// Runs due timers.
    public func handleTimeout(now: Instant) {
        association.handleTimeout(now: now)
        processAssociationEvents(now: now)
    }

    /// The next packet to send, if any.
    public func pollTransmit(now: Instant) -> [UInt8]? {
        let p = association.pollTransmit(now: now)
        processAssociationEvents(now: now)
        return p
    }

    /// When `handleTimeout` must next be called.
    public var nextTimeout: Instant? { association.nextTimeout }

    /// The next event, if any.
    /// Messages not yet taken here count against the SCTP receive window (flow control): call
    /// `pollTransmit` after draining so a window update can go out.
    public func pollEvent() -> DataChannelEvent? {
        let event = events.popFirst()
        if case let .message(_, m)? = event {
            messageBacklog -= m.byteCount
            association.applicationBacklogBytes = messageBacklog
        }
        return event
    }

    /// A snapshot of a channel, nil once it is closed and forgotten.
    public func channel(_ id: UInt16) -> DataChannelInfo? {
        guard var info = channels[id]?.info else { return nil }
        info.bufferedAmount = association.bufferedAmount(streamIdentifier: id)
        return info
    }

    /// Ids of the channels currently known (any state but closed).
    public var channelIds: [UInt16] { channels.keys.sorted() }

    /// Sets the W3C `bufferedAmountLowThreshold` of a channel.
    public func setBufferedAmountLowThreshold(_ bytes: Int, channel id: UInt16) {
        association.setBufferedAmountLowThreshold(bytes, streamIdentifier: id)
    }

    /// Creates a channel (W3C `createDataChannel`). Non-negotiated channels send DATA_CHANNEL_OPEN
    /// as soon as the association is established and are reported open then.
    public func createDataChannel(label: String, options: DataChannelInit = DataChannelInit(),
                                  now: Instant) throws(DataChannelError) -> UInt16 {
        if options.maxRetransmits != nil && options.maxPacketLifeTime != nil { throw .conflictingReliability }
        let id: UInt16
        if let requested = options.id {
            guard channels[requested] == nil else { throw .invalidId("\(requested) is in use") }
            guard requested != 65535 else { throw .invalidId("65535 is reserved") }
            id = requested
        } else {
            guard !options.negotiated else { throw .invalidId("a negotiated channel needs an id") }
            id = try allocateId()
        }
        let info = DataChannelInfo(id: id, label: label, protocol: options.protocol, ordered: options.ordered,
                                   maxRetransmits: options.maxRetransmits, maxPacketLifeTime: options.maxPacketLifeTime,
                                   negotiated: options.negotiated, priority: options.priority, readyState: .connecting,
                                   bufferedAmount: 0)
        channels[id] = Channel(info: info, announced: false, awaitingAck: !options.negotiated)
        if connected { announce(id, now: now) } else { queueOpen(id, now: now) }
        return id
    }

    /// Sends a message on an open channel. Empty messages use PPID 56/57 with one zero byte (RFC 8831 §6.6).
    public func send(_ message: DataChannelMessage, channel id: UInt16, now: Instant) throws(DataChannelError) {
        guard let ch = channels[id] else { throw .unknownChannel(id) }
        guard ch.info.readyState == .open else { throw .invalidState(ch.info.readyState) }
        let size = message.byteCount
        guard size <= remoteMaxMessageSize else { throw .messageTooLarge(size: size, limit: remoteMaxMessageSize) }
        let (payload, ppid): ([UInt8], UInt32) = switch message {
        case let .string(s) where s.isEmpty: ([0], DataChannelPPID.stringEmpty)
        case let .string(s): (Array(s.utf8), DataChannelPPID.string)
        case let .binary(b) where b.isEmpty: ([0], DataChannelPPID.binaryEmpty)
        case let .binary(b): (b, DataChannelPPID.binary)
        }
        var options = SCTPSendOptions(unordered: !ch.info.ordered && !ch.awaitingAck)
        options.maxRetransmits = ch.info.maxRetransmits.map(Int.init)
        options.lifetime = ch.info.maxPacketLifeTime.map { .milliseconds(Int($0)) }
        do {
            try association.send(payload, streamIdentifier: id, payloadProtocolIdentifier: ppid, options: options, now: now)
        } catch {
            throw .association(error)
        }
    }

    /// Closes a channel (W3C `close()`): resets the outgoing stream (RFC 8831 §6.7); the channel is
    /// closed once the peer has reset its side too.
    public func close(channel id: UInt16, now: Instant) {
        guard var ch = channels[id], ch.info.readyState == .open || ch.info.readyState == .connecting else { return }
        ch.info.readyState = .closing
        channels[id] = ch
        if connected {
            association.resetStreams([id], now: now)
        } else if ch.openQueued {
            // The OPEN will reach the peer with the handshake: reset the stream once it is up.
        } else {
            finishClose(id, reason: "closed before the association was established")
        }
    }

    /// Closes the association gracefully (SHUTDOWN); channels close when it completes.
    public func shutdown(now: Instant) { association.shutdown(now: now) }

    /// Aborts the association at once; every channel closes with `reason`.
    public func abort(reason: String, now: Instant) {
        association.abort(reason: reason, now: now)
        processAssociationEvents(now: now)
    }

    private func allocateId() throws(DataChannelError) -> UInt16 {
        let limit = association.outboundStreamCount > 0 ? association.outboundStreamCount : Int(association.config.outboundStreams)
        var candidate = role == .client ? 0 : 1
        while candidate < min(limit, 65535) {
            if channels[UInt16(candidate)] == nil { return UInt16(candidate) }
            candidate += 2
        }
        throw .noFreeStream
    }
}

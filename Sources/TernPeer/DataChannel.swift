public import Foundation
import Synchronization
public import TernSCTP

/// A W3C-shaped data channel (`RTCDataChannel`): created by `PeerConnection.createDataChannel`
/// or announced by a `.dataChannel` event when the peer opens one.
///
/// Thread-safety: every member may be used from any thread or task.
public final class DataChannel: Sendable {
    /// What a data channel reports, in order.
    public enum Event: Sendable, Equatable {
        /// `readyState` became `open`.
        case open
        /// A message arrived.
        case message(DataChannelMessage)
        /// `bufferedAmount` fell to or below `bufferedAmountLowThreshold`.
        case bufferedAmountLow
        /// The channel closed, with the reason when it was not an orderly close.
        case closed(reason: String?)
    }

    /// The channel's label.
    public let label: String
    /// The options it was created with (ordered, reliability, protocol, negotiated id).
    public let options: DataChannelInit
    /// Events, in order. Single consumer. Messages count as received data the application has
    /// not read until taken from here: a connection stops taking more from the peer while
    /// `PeerConfiguration.dataChannelReceiveBacklog` bytes of them wait (flow control), so a
    /// channel whose events nobody reads holds up the others once that much has arrived.
    public let events: Events

    /// The events of one channel (an `AsyncSequence`, like the `AsyncStream` it wraps); reading
    /// a message releases its bytes from the connection's receive backlog.
    public struct Events: AsyncSequence, Sendable {
        public typealias Element = Event
        fileprivate let base: AsyncStream<Event>
        fileprivate let account: UnreadAccount

        public struct AsyncIterator: AsyncIteratorProtocol {
            fileprivate var base: AsyncStream<Event>.AsyncIterator
            fileprivate let account: UnreadAccount

            public mutating func next() async -> Event? {
                let event = await base.next()
                if case let .message(message)? = event { account.read(message.byteCount) }
                return event
            }
        }

        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(base: base.makeAsyncIterator(), account: account)
        }
    }

    /// One channel's share of the connection's `ReceiveBacklog`.
    fileprivate final class UnreadAccount: Sendable {
        private struct State {
            var unread = 0
            var backlog: ReceiveBacklog?
            var transport: (any DataChannelTransport)?
            var closed = false
        }
        private let state = Mutex(State())

        func connect(_ backlog: ReceiveBacklog, transport: any DataChannelTransport) {
            state.withLock {
                $0.backlog = backlog
                $0.transport = transport
            }
        }

        func received(_ bytes: Int) {
            let resume = state.withLock { state -> (any DataChannelTransport)? in
                guard state.closed else {
                    state.unread += bytes
                    return nil
                }
                // Closed already: nobody will read it through this channel's events.
                return state.backlog?.release(bytes) == true ? state.transport : nil
            }
            resume?.resumeReceiving()
        }

        func read(_ bytes: Int) {
            let resume = state.withLock { state -> (any DataChannelTransport)? in
                guard !state.closed, let backlog = state.backlog else { return nil }
                let taken = min(bytes, state.unread)
                state.unread -= taken
                return backlog.release(taken) ? state.transport : nil
            }
            resume?.resumeReceiving()
        }

        /// The channel closed: whatever is unread no longer holds the connection back.
        func close() {
            let resume = state.withLock { state -> (any DataChannelTransport)? in
                guard !state.closed else { return nil }
                state.closed = true
                defer { state.unread = 0 }
                guard let backlog = state.backlog else { return nil }
                return backlog.release(state.unread) ? state.transport : nil
            }
            resume?.resumeReceiving()
        }
    }

    private struct State {
        var id: UInt16?
        var readyState: DataChannelState = .connecting
        var bufferedAmountLowThreshold = 0
        var counters = Counters()
    }

    /// Message and byte counts (W3C `RTCDataChannelStats`).
    public struct Counters: Sendable, Equatable {
        public var messagesSent = 0
        public var bytesSent = 0
        public var messagesReceived = 0
        public var bytesReceived = 0
    }

    /// Messages and bytes sent and received so far.
    public var counters: Counters { state.withLock { $0.counters } }

    private let state = Mutex(State())
    private let account = UnreadAccount()
    private let continuation: AsyncStream<Event>.Continuation
    private let transport: Mutex<(any DataChannelTransport)?>

    init(label: String, options: DataChannelInit, id: UInt16?) {
        self.label = label
        self.options = options
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .unbounded)
        self.continuation = continuation
        transport = Mutex(nil)
        events = Events(base: stream, account: account)
        state.withLock { $0.id = id }
    }

    /// The SCTP stream id; nil until negotiation assigned one.
    public var id: UInt16? { state.withLock { $0.id } }

    /// W3C `readyState`.
    public var readyState: DataChannelState { state.withLock { $0.readyState } }

    /// Bytes queued for sending and not yet acknowledged by the peer (W3C `bufferedAmount`).
    public var bufferedAmount: Int {
        guard let id, let transport = transport.withLock({ $0 }) else { return 0 }
        return transport.bufferedAmount(channel: id)
    }

    /// The threshold for the `.bufferedAmountLow` event (W3C `bufferedAmountLowThreshold`).
    public var bufferedAmountLowThreshold: Int {
        get { state.withLock { $0.bufferedAmountLowThreshold } }
        set {
            state.withLock { $0.bufferedAmountLowThreshold = newValue }
            if let id, let transport = transport.withLock({ $0 }) {
                transport.setBufferedAmountLowThreshold(newValue, channel: id)
            }
        }
    }

    /// Sends a text message (PPID 51, or 56 when empty; RFC 8831 §8).
    public func send(_ text: String) throws(PeerConnectionError) {
        try send(.string(text))
    }

    /// Sends a binary message (PPID 53, or 57 when empty).
    public func send(_ bytes: [UInt8]) throws(PeerConnectionError) {
        try send(.binary(bytes))
    }

    /// Sends a binary message from `Data` (W3C `send(ArrayBuffer)`; PPID 53, or 57 when empty).
    public func send(_ data: Data) throws(PeerConnectionError) {
        try send(.binary([UInt8](data)))
    }

    /// Sends a message; refused with a clear error when the channel is not open or the message
    /// exceeds the peer's `max-message-size` — nothing is silently truncated.
    public func send(_ message: DataChannelMessage) throws(PeerConnectionError) {
        guard let id, let transport = transport.withLock({ $0 }), readyState == .open else {
            throw .invalidState("data channel '\(label)' is \(readyState.rawValue), not open")
        }
        do throws(DataChannelError) {
            try transport.send(message, channel: id)
        } catch {
            throw .dataChannel(error)
        }
        state.withLock {
            $0.counters.messagesSent += 1
            $0.counters.bytesSent += message.byteCount
        }
    }

    /// Closes the channel (an SCTP stream reset, RFC 8831 §6.7).
    public func close() {
        let id = state.withLock { state -> UInt16? in
            guard state.readyState == .open || state.readyState == .connecting else { return nil }
            state.readyState = .closing
            return state.id
        }
        guard let id, let transport = transport.withLock({ $0 }) else {
            didClose(reason: nil)
            return
        }
        transport.close(channel: id)
    }

    // MARK: Driven by the peer connection

    func attach(_ transport: any DataChannelTransport, id: UInt16) {
        self.transport.withLock { $0 = transport }
        account.connect(transport.receiveBacklog, transport: transport)
        let threshold = state.withLock { state -> Int in
            state.id = id
            return state.bufferedAmountLowThreshold
        }
        if threshold > 0 { transport.setBufferedAmountLowThreshold(threshold, channel: id) }
    }

    func didOpen() {
        let changed = state.withLock { state -> Bool in
            guard state.readyState == .connecting else { return false }
            state.readyState = .open
            return true
        }
        if changed { continuation.yield(.open) }
    }

    func didReceive(_ message: DataChannelMessage) {
        state.withLock {
            $0.counters.messagesReceived += 1
            $0.counters.bytesReceived += message.byteCount
        }
        account.received(message.byteCount)
        continuation.yield(.message(message))
    }

    func didReachLowBufferedAmount() {
        continuation.yield(.bufferedAmountLow)
    }

    func didClose(reason: String?) {
        let changed = state.withLock { state -> Bool in
            guard state.readyState != .closed else { return false }
            state.readyState = .closed
            return true
        }
        guard changed else { return }
        continuation.yield(.closed(reason: reason))
        continuation.finish()
        transport.withLock { $0 = nil }
        account.close()
    }
}

/// What a `DataChannel` needs from the transport under it.
protocol DataChannelTransport: Sendable {
    func send(_ message: DataChannelMessage, channel id: UInt16) throws(DataChannelError)
    func close(channel id: UInt16)
    func bufferedAmount(channel id: UInt16) -> Int
    func setBufferedAmountLowThreshold(_ bytes: Int, channel id: UInt16)
    /// The connection's account of received bytes the application has not read.
    var receiveBacklog: ReceiveBacklog { get }
    /// The application read its backlog down: take the messages held back in SCTP now.
    func resumeReceiving()
}

extension TransportDriver: DataChannelTransport {
    func send(_ message: DataChannelMessage, channel id: UInt16) throws(DataChannelError) {
        try perform { (core, now) throws(DataChannelError) in try core.send(message, channel: id, now: now) }
    }

    func close(channel id: UInt16) {
        perform { core, now in core.closeChannel(id, now: now) }
    }

    func bufferedAmount(channel id: UInt16) -> Int {
        perform { core, _ in core.channelInfo(id)?.bufferedAmount ?? 0 }
    }

    func setBufferedAmountLowThreshold(_ bytes: Int, channel id: UInt16) {
        perform { core, _ in core.setBufferedAmountLowThreshold(bytes, channel: id) }
    }

    func resumeReceiving() {
        perform { core, now in core.pumpSCTP(now: now) }
    }
}

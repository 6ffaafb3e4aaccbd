import Synchronization
import TernICE
import TernRTP
import TernSCTP

/// The objects a `PeerConnection` performs its core's actions with (the ICE agent, the
/// transport) and the ones the application holds (senders, data channels, remote tracks),
/// behind their own lock. It makes no protocol decision; it keeps the table's two rules: nothing
/// is added once it is closed, and what arrives before the transport exists is bounded.
///
/// Lock order: the core's lock is never held while this one is taken, nor the reverse; a
/// sender's and a channel's own locks may be taken under this one.
final class PeerObjects: Sendable {
    private struct Table {
        var ice: ICETransport?
        var driver: TransportDriver?
        var iceEventsTask: Task<Void, Never>?
        /// Datagrams ICE delivered before the transport existed (a DTLS ClientHello that beat
        /// the answer); at most `earlyDatagramLimit`.
        var earlyDatagrams: [[UInt8]] = []
        var senders: [RTPSender] = []
        var channels: [UInt16: DataChannel] = [:]
        /// Channels created before the transport could open them.
        var unattachedChannels: [DataChannel] = []
        var remoteTracks: [UInt32: RemoteTrack] = [:]
        var dataChannelsOpened = 0
        var dataChannelsClosed = 0
        var isClosed = false
    }

    /// What `close` hands back to be shut down outside the lock.
    struct Closing {
        var ice: ICETransport?
        var driver: TransportDriver?
        var iceEventsTask: Task<Void, Never>?
        var channels: [DataChannel]
        var remoteTracks: [RemoteTrack]
        var senders: [RTPSender]
    }

    /// What `getStats` reads besides the core.
    struct StatsSnapshot {
        var ice: ICETransport?
        var driver: TransportDriver?
        var channels: [DataChannel]
        var remoteTracks: [RemoteTrack]
        var senders: [RTPSender]
        var dataChannelsOpened: Int
        var dataChannelsClosed: Int
    }

    /// A peer's ClientHello and a few retransmissions fit; a flood before the answer does not.
    static let earlyDatagramLimit = 64

    private let table = Mutex(Table())

    var ice: ICETransport? { table.withLock { $0.ice } }
    var driver: TransportDriver? { table.withLock { $0.driver } }

    // MARK: ICE agent and transport

    /// Keeps the agent; false (and the caller closes it) once closed.
    func install(ice: ICETransport) -> Bool {
        table.withLock { table in
            guard !table.isClosed else { return false }
            table.ice = ice
            return true
        }
    }

    /// Keeps the task that feeds the agent's events to the core; cancels it once closed.
    func install(iceEventsTask task: Task<Void, Never>) {
        let closed = table.withLock { table in
            if !table.isClosed { table.iceEventsTask = task }
            return table.isClosed
        }
        if closed { task.cancel() }
    }

    /// Keeps the transport, attaches the senders to it and returns the datagrams that arrived
    /// before it; nil (and the caller closes it) once closed.
    func install(driver: TransportDriver) -> [[UInt8]]? {
        table.withLock { table in
            guard !table.isClosed else { return nil }
            table.driver = driver
            for sender in table.senders { sender.attach(driver) }
            defer { table.earlyDatagrams = [] }
            return table.earlyDatagrams
        }
    }

    /// The transport for a datagram ICE delivered; until there is one, the datagram is kept
    /// (up to `earlyDatagramLimit`) for `install(driver:)`.
    func transport(forEarly datagram: [UInt8]) -> TransportDriver? {
        table.withLock { table in
            if table.driver == nil, !table.isClosed, table.earlyDatagrams.count < Self.earlyDatagramLimit {
                table.earlyDatagrams.append(datagram)
            }
            return table.driver
        }
    }

    // MARK: Senders

    var senders: [RTPSender] { table.withLock { $0.senders } }

    /// Adds a sender, attached to the transport if there is one.
    func add(sender: RTPSender) {
        table.withLock { table in
            guard !table.isClosed else { return }
            table.senders.append(sender)
            sender.attach(table.driver)
        }
    }

    func contains(sender: RTPSender) -> Bool {
        table.withLock { table in table.senders.contains { $0 === sender } }
    }

    /// Removes and detaches a sender.
    func remove(sender: RTPSender) {
        table.withLock { table in
            table.senders.removeAll { $0 === sender }
            sender.attach(nil)
        }
    }

    func sender(ssrc: UInt32) -> RTPSender? {
        table.withLock { table in table.senders.first { $0.ssrc == ssrc } }
    }

    // MARK: Data channels

    func channel(id: UInt16) -> DataChannel? { table.withLock { $0.channels[id] } }

    /// Keeps a channel the transport opened under `id`.
    func register(_ channel: DataChannel, id: UInt16) {
        table.withLock { table in
            guard !table.isClosed else { return }
            table.channels[id] = channel
        }
    }

    /// The transport to open `channel` on; without one, the channel waits for it.
    func transport(forNew channel: DataChannel) -> TransportDriver? {
        table.withLock { table in
            if table.driver == nil, !table.isClosed { table.unattachedChannels.append(channel) }
            return table.driver
        }
    }

    /// Keeps a channel until the transport can open it (no SCTP association yet).
    func waitForTransport(_ channel: DataChannel) {
        table.withLock { table in
            guard !table.isClosed else { return }
            table.unattachedChannels.append(channel)
        }
    }

    /// The channels waiting for the transport, which now opens them.
    func takeUnattachedChannels() -> [DataChannel] {
        table.withLock { table in
            defer { table.unattachedChannels = [] }
            return table.unattachedChannels
        }
    }

    /// A channel the transport reports open: ours, or a new one the peer opened (`isNew`).
    func channelOpened(_ info: DataChannelInfo) -> (channel: DataChannel, isNew: Bool)? {
        table.withLock { table in
            table.dataChannelsOpened += 1
            if let existing = table.channels[info.id] { return (existing, false) }
            guard !table.isClosed else { return nil }
            let options = DataChannelInit(ordered: info.ordered, maxRetransmits: info.maxRetransmits,
                                          maxPacketLifeTime: info.maxPacketLifeTime, protocol: info.protocol,
                                          negotiated: info.negotiated, id: info.id, priority: info.priority)
            let channel = DataChannel(label: info.label, options: options, id: info.id)
            table.channels[info.id] = channel
            return (channel, true)
        }
    }

    /// Forgets a channel the transport reports closed.
    func channelClosed(id: UInt16) -> DataChannel? {
        table.withLock { table in
            table.dataChannelsClosed += 1
            return table.channels.removeValue(forKey: id)
        }
    }

    /// Forgets every channel (the association closed).
    func takeAllChannels() -> [DataChannel] {
        table.withLock { table in
            defer { table.channels = [:] }
            return Array(table.channels.values)
        }
    }

    // MARK: Remote tracks

    /// Keeps a track for a stream the peer started; false if closed or already known.
    func add(track: RemoteTrack, ssrc: UInt32) -> Bool {
        table.withLock { table in
            guard !table.isClosed, table.remoteTracks[ssrc] == nil else { return false }
            table.remoteTracks[ssrc] = track
            return true
        }
    }

    func track(ssrc: UInt32) -> RemoteTrack? { table.withLock { $0.remoteTracks[ssrc] } }

    // MARK: Stats and close

    var statsSnapshot: StatsSnapshot {
        table.withLock { table in
            StatsSnapshot(ice: table.ice, driver: table.driver, channels: Array(table.channels.values),
                          remoteTracks: Array(table.remoteTracks.values), senders: table.senders,
                          dataChannelsOpened: table.dataChannelsOpened, dataChannelsClosed: table.dataChannelsClosed)
        }
    }

    /// Empties the table and refuses additions from now on; returns what was in it, to be
    /// shut down outside the lock (nil the second time).
    func close() -> Closing? {
        table.withLock { table in
            guard !table.isClosed else { return nil }
            table.isClosed = true
            defer { table = Table(senders: table.senders, isClosed: true) }
            return Closing(ice: table.ice, driver: table.driver, iceEventsTask: table.iceEventsTask,
                           channels: Array(table.channels.values) + table.unattachedChannels,
                           remoteTracks: Array(table.remoteTracks.values), senders: table.senders)
        }
    }
}

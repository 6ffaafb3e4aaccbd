import Synchronization
import TernCore
import TernPeer
import TernSCTP

/// The application data channels of a `tern peer` call: the caller's own reliable channel, the
/// channels the remote side opens, echoing (`--echo`) and the echo run's replies.
final class PeerDataChannels: Sendable {
    /// The label of the channel a calling `tern peer` opens.
    static let ownLabel = "tern-data"

    let name: String
    let echo: Bool
    let echoRun: EchoRun?
    /// The options of `tern-data` (W3C `RTCDataChannelInit`).
    let ownOptions: DataChannelInit
    let timeline: Timeline

    private struct State {
        var own: DataChannel?
        var opened: [String] = []
        var received = 0
        var receivedByLabel: [String: Int] = [:]
        var echoed = 0
        var echoedByLabel: [String: Int] = [:]
        var echoError: String?
    }

    private let state = Mutex(State())

    init(name: String, echo: Bool, echoRun: EchoRun?, ownOptions: DataChannelInit = DataChannelInit(), timeline: Timeline) {
        self.name = name
        self.echo = echo
        self.echoRun = echoRun
        self.ownOptions = ownOptions
        self.timeline = timeline
    }

    /// Labels of the channels that opened, in order.
    var opened: [String] { state.withLock { $0.opened } }
    /// Messages received on every application channel.
    var messagesReceived: Int { state.withLock { $0.received } }
    /// Messages sent back by `--echo`.
    var messagesEchoed: Int { state.withLock { $0.echoed } }
    /// Messages received, per channel label.
    var messagesReceivedByLabel: [String: Int] { state.withLock { $0.receivedByLabel } }
    /// Messages sent back by `--echo`, per channel label.
    var messagesEchoedByLabel: [String: Int] { state.withLock { $0.echoedByLabel } }
    /// Why echoing stopped, if it did.
    var echoError: String? { state.withLock { $0.echoError } }

    /// Opens this peer's channel `tern-data` (reliable and ordered unless `ownOptions` say
    /// otherwise) on the call's peer connection.
    func openOwnChannel(on peer: PeerConnection) {
        do {
            let channel = try peer.createDataChannel(Self.ownLabel, options: ownOptions)
            state.withLock { $0.own = channel }
            adopt(channel, own: true)
        } catch {
            timeline.log("error", "\(name): cannot create data channel '\(Self.ownLabel)': \(error)")
        }
    }

    /// The caller's own channel once it is open (waits at most `seconds`).
    func ownChannelOpen(seconds: Double) async -> DataChannel? {
        let open = await waitFor(seconds: seconds) { state.withLock { $0.own?.readyState == .open } }
        return open ? state.withLock { $0.own } : nil
    }

    /// Follows a channel's events until it closes. On the caller's own channel the echo run's
    /// replies are taken by the run; everything else is echoed when `--echo` is on.
    func adopt(_ channel: DataChannel, own: Bool = false) {
        Task {
            for await event in channel.events {
                switch event {
                case .open:
                    state.withLock { $0.opened.append(channel.label) }
                    timeline.log("dc", "\(name): data channel '\(LogText.escaped(channel.label))' open (id \(channel.id.map(String.init) ?? "-"), "
                        + "\(channel.options.ordered ? "ordered" : "unordered")"
                        + (channel.options.maxRetransmits.map { ", maxRetransmits \($0)" } ?? "") + ")",
                        fields: ["who": .string(name), "label": .string(channel.label), "event": .string("open")])
                case let .message(message):
                    state.withLock {
                        $0.received += 1
                        $0.receivedByLabel[channel.label, default: 0] += 1
                    }
                    if own, let echoRun {
                        echoRun.receive(message)
                    } else if echo {
                        send(back: message, on: channel)
                    }
                case .bufferedAmountLow:
                    break
                case let .closed(reason):
                    timeline.log("dc", "\(name): data channel '\(LogText.escaped(channel.label))' closed" + (reason.map { ": \($0)" } ?? ""),
                                 fields: ["who": .string(name), "label": .string(channel.label), "event": .string("closed")])
                }
            }
        }
    }

    private func send(back message: DataChannelMessage, on channel: DataChannel) {
        do {
            try channel.send(message)
            state.withLock {
                $0.echoed += 1
                $0.echoedByLabel[channel.label, default: 0] += 1
            }
        } catch {
            let first = state.withLock { state -> Bool in
                defer { state.echoError = state.echoError ?? "\(error)" }
                return state.echoError == nil
            }
            if first { timeline.log("error", "\(name): could not echo on '\(channel.label)': \(error)") }
        }
    }
}

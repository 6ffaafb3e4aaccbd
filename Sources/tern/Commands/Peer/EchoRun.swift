import Synchronization
import TernCore
import TernPeer
import TernSCTP

/// `tern peer --echo-count N`: sends N numbered messages on its channel `tern-data` and checks
/// that the peer (running `--echo`) sends every one back exactly once, in order and byte for
/// byte. On an unordered channel the order is not required; on a partially reliable one
/// (`maxRetransmits`) messages may be missing, but none may come back twice or altered.
final class EchoRun: Sendable {
    let count: Int
    /// Whether the echoes must come back in the order sent (the channel is ordered).
    let ordered: Bool
    /// Whether every echo must come back (the channel is reliable).
    let reliable: Bool
    /// The last message is sent at the peer's max-message-size (known once the call is up).
    let lastAtMaxMessageSize: Bool
    /// The pause between two sends; nil: as fast as the channel takes them.
    let interval: Duration?
    /// With no interval, sending pauses while more than this is queued (W3C `bufferedAmount`).
    let highWaterMark: Int

    private struct State {
        var sentAt: [ContinuousClock.Instant?]
        var sent = 0
        var arrivals: [Int] = []
        var roundTripsMs: [Double] = []
        var foreign = 0
        var corrupted = 0
        var sendError: String?
    }

    private let state: Mutex<State>
    /// The message format; the max-message-size message is added to it when the run starts.
    private let formatState: Mutex<EchoMessageFormat>
    private let clock = ContinuousClock()

    var format: EchoMessageFormat { formatState.withLock { $0 } }

    init(count: Int, format: EchoMessageFormat = EchoMessageFormat(), interval: Duration?, highWaterMark: Int = 1 << 20,
         ordered: Bool = true, reliable: Bool = true, lastAtMaxMessageSize: Bool = false) {
        self.count = count
        formatState = Mutex(format)
        self.interval = interval
        self.highWaterMark = highWaterMark
        self.ordered = ordered
        self.reliable = reliable
        self.lastAtMaxMessageSize = lastAtMaxMessageSize
        state = Mutex(State(sentAt: Array(repeating: nil, count: count)))
    }

    /// Takes a message that came back on the run's channel. Returns false when it is not one of
    /// the run's messages (it is counted as foreign).
    @discardableResult
    func receive(_ message: DataChannelMessage) -> Bool {
        let now = clock.now
        let format = self.format
        guard let sequence = format.sequence(of: message), sequence >= 0, sequence < count else {
            state.withLock { $0.foreign += 1 }
            return false
        }
        let intact = message == format.message(sequence)
        state.withLock { state in
            state.arrivals.append(sequence)
            if !intact { state.corrupted += 1 }
            if let sentAt = state.sentAt[sequence] {
                state.roundTripsMs.append((now - sentAt).milliseconds)
            }
        }
        return true
    }

    /// Sends every message, then waits (at most `drainSeconds`) for the echoes still in flight.
    /// `remoteMaxMessageSize` (from the remote description) sizes the last message when
    /// `lastAtMaxMessageSize` is set.
    func run(on channel: DataChannel, timeline: Timeline, remoteMaxMessageSize: Int?, drainSeconds: Double = 30) async -> EchoResult {
        let start = clock.now
        if lastAtMaxMessageSize, let remoteMaxMessageSize {
            formatState.withLock { $0.special = (sequence: count - 1, size: remoteMaxMessageSize) }
        }
        let format = self.format
        timeline.log("echo", "sending \(count) numbered \(format.text) on '\(channel.label)'"
            + " (\(ordered ? "ordered" : "unordered"), \(reliable ? "reliable" : "partially reliable"))"
            + (interval.map { " every \($0.milliseconds) ms" } ?? " as fast as the channel takes them"))
        for sequence in 0..<count where !StopRequest.requested {
            if let interval {
                try? await Task.sleep(until: start + interval * sequence, clock: clock)
            } else {
                while channel.bufferedAmount > highWaterMark, channel.readyState == .open {
                    try? await Task.sleep(for: .milliseconds(1))
                }
            }
            state.withLock { $0.sentAt[sequence] = clock.now }
            do {
                try channel.send(format.message(sequence))
                state.withLock { $0.sent += 1 }
            } catch {
                state.withLock { $0.sendError = "message \(sequence): \(error)" }
                break
            }
        }
        let lastSend = clock.now
        let deadline = lastSend + .milliseconds(Int(drainSeconds * 1000))
        // A partially reliable channel may lose messages for good: stop 2 s after the last arrival.
        var lastProgress = (count: state.withLock { $0.arrivals.count }, at: clock.now)
        while clock.now < deadline, state.withLock({ $0.arrivals.count < $0.sent }), channel.readyState == .open,
              !StopRequest.requested {
            try? await Task.sleep(for: .milliseconds(5))
            let arrived = state.withLock { $0.arrivals.count }
            if arrived != lastProgress.count { lastProgress = (arrived, clock.now) }
            if !reliable, clock.now - lastProgress.at > .seconds(2) { break }
        }
        let result = self.result(elapsed: clock.now - start)
        timeline.log("echo", result.text, fields: ["echo": result.json])
        return result
    }

    private func result(elapsed: Duration) -> EchoResult {
        state.withLock { state in
            let distinct = Set(state.arrivals)
            let rtts = state.roundTripsMs.sorted()
            func percentile(_ p: Double) -> Double? {
                rtts.isEmpty ? nil : rtts[min(rtts.count - 1, Int(Double(rtts.count - 1) * p))]
            }
            return EchoResult(
                sent: state.sent, received: state.arrivals.count, duplicates: state.arrivals.count - distinct.count,
                missing: state.sent - distinct.filter { $0 < state.sent }.count,
                inOrder: zip(state.arrivals, state.arrivals.dropFirst()).allSatisfy { $0 < $1 },
                corrupted: state.corrupted, foreign: state.foreign,
                durationMs: elapsed.milliseconds, roundTripMedianMs: percentile(0.5), roundTripP95Ms: percentile(0.95),
                sendError: state.sendError)
        }
    }
}

/// What an echo run found.
struct EchoResult: Sendable {
    var sent: Int
    var received: Int
    var duplicates: Int
    var missing: Int
    /// Every echo arrived in the order sent (each after the ones sent before it).
    var inOrder: Bool
    /// Echoes whose bytes differ from what was sent.
    var corrupted: Int
    /// Messages on the channel that were not the run's.
    var foreign: Int
    var durationMs: Double
    var roundTripMedianMs: Double?
    var roundTripP95Ms: Double?
    var sendError: String?

    /// All sent, none back twice or altered; all back when `reliable` (else at least one), in
    /// order when `ordered`.
    func passed(expected: Int, ordered: Bool = true, reliable: Bool = true) -> Bool {
        let complete = reliable ? received == expected && missing == 0 : received > 0 && received <= sent
        return sent == expected && complete && duplicates == 0 && (inOrder || !ordered) && corrupted == 0
            && sendError == nil
    }

    var json: JSONValue {
        func ms(_ value: Double?) -> JSONValue { value.map { .number(($0 * 100).rounded() / 100) } ?? .null }
        return .object([
            "sent": .int(sent), "received": .int(received), "duplicates": .int(duplicates), "missing": .int(missing),
            "inOrder": .bool(inOrder), "corrupted": .int(corrupted), "foreign": .int(foreign), "durationMs": ms(durationMs),
            "roundTripMedianMs": ms(roundTripMedianMs), "roundTripP95Ms": ms(roundTripP95Ms),
            "sendError": sendError.map { .string($0) } ?? .null,
        ])
    }

    var text: String {
        var text = "\(sent) sent, \(received) echoed back" + (inOrder ? " in order" : " OUT OF ORDER")
        if duplicates > 0 { text += ", \(duplicates) duplicated" }
        if missing > 0 { text += ", \(missing) missing" }
        if corrupted > 0 { text += ", \(corrupted) CORRUPTED" }
        text += String(format: " in %.1f ms", durationMs)
        if let median = roundTripMedianMs, let p95 = roundTripP95Ms {
            text += String(format: "; round trip median %.2f ms, p95 %.2f ms", median, p95)
        }
        if let sendError { text += "; send failed: \(sendError)" }
        return text
    }
}

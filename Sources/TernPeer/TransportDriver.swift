import Synchronization
import TernCore
import TernICE

/// The thin I/O around `TransportCore`: datagrams from the ICE transport (on its GLib thread),
/// timer expiries (on the timer's queue) and API calls (any thread) each take the core's lock,
/// feed the core with `now`, and queue what it produced. Outputs are then sent through ICE and
/// handed to the peer connection in the order the core produced them, by one thread at a time
/// and with no lock held: a libnice callback never waits on us while we wait on libnice, and
/// two threads can never reorder two video frames or two data-channel messages.
final class TransportDriver: Sendable {
    private let ice: ICETransport
    private let clock: any MonotonicClock
    private let core: Mutex<TransportCore>
    private let timer: DriverTimer
    private let deliver: @Sendable ([TransportEvent]) -> Void
    private let sendFailures = Atomic<Int>(0)
    /// Datagrams produced before ICE could send anything (a DTLS server answering a ClientHello
    /// that arrived before its own side of ICE had a selected pair): sent once ICE connects
    /// instead of being lost. Dropping them would cost a whole DTLS retransmission cycle (100 ms,
    /// 300 ms, 700 ms, ...) of set-up time on a lossy path. Bounded; `nil` once ICE connected.
    private let heldUntilConnected = Mutex<[[UInt8]]?>([])
    private static let heldLimit = 64

    /// Outputs in production order, and whether some thread is delivering them.
    private struct Outbox {
        var queue: [TransportCore.Output] = []
        var draining = false
    }
    private let outbox = Mutex(Outbox())
    /// The core's account of received data-channel bytes the application has not read.
    let receiveBacklog: ReceiveBacklog

    init(core: sending TransportCore, ice: ICETransport, clock: any MonotonicClock,
         deliver: @escaping @Sendable ([TransportEvent]) -> Void) {
        receiveBacklog = core.receiveBacklog
        self.core = Mutex(core)
        self.ice = ice
        self.clock = clock
        self.deliver = deliver
        self.timer = DriverTimer(label: "tern.transport.timer")
        Self.connect(timer, to: self)
    }

    private static func connect(_ timer: DriverTimer, to driver: TransportDriver) {
        timer.setHandler { [weak driver] in driver?.handleTimeout() }
    }

    /// Runs `body` on the core under its lock with the current time, then sends and delivers
    /// what it produced.
    @discardableResult
    func perform<Result: Sendable, Failure: Error>(
        _ body: (TransportCore, Instant) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let result = try core.withLock { core throws(Failure) -> Result in
            let now = clock.now()  // read under the lock, so inputs reach the core in time order
            let result = try body(core, now)
            let output = core.takeOutput()
            // Queued while the core is still locked, so the queue's order is the core's order.
            if !output.datagrams.isEmpty || !output.events.isEmpty { outbox.withLock { $0.queue.append(output) } }
            // Armed under the lock too: armed after it, an older deadline computed by another
            // thread could overwrite a newer one and a retransmission would never fire.
            timer.arm(at: core.nextTimeout, now: now)
            return result
        }
        drainOutbox()
        return result
    }

    /// Delivers queued outputs in order. Only one thread drains at a time; a thread that finds
    /// another draining leaves its output to it (like an actor's mailbox).
    private func drainOutbox() {
        while true {
            let batch = outbox.withLock { box -> [TransportCore.Output]? in
                guard !box.draining, !box.queue.isEmpty else { return nil }
                box.draining = true
                defer { box.queue.removeAll(keepingCapacity: true) }
                return box.queue
            }
            guard let batch else { return }
            for output in batch { flush(output) }
            outbox.withLock { $0.draining = false }
        }
    }

    /// A datagram from ICE (runs on the GLib thread).
    func receive(_ datagram: [UInt8]) {
        perform { core, now in core.handle(datagram: datagram, now: now) }
    }

    private func handleTimeout() {
        perform { core, now in core.handleTimeout(now: now) }
    }

    private func flush(_ output: TransportCore.Output) {
        let datagrams = output.datagrams
        var held: [[UInt8]] = []
        var start = datagrams.startIndex
        while start < datagrams.endIndex {
            let end = min(start + Self.batchLimit, datagrams.endIndex)
            defer { start = end }
            if end - start > 1 {
                do {
                    let sent = try ice.send(batch: datagrams[start..<end])
                    if sent < end - start { sendFailures.add(end - start - sent, ordering: .relaxed) }
                    continue
                } catch .closed {
                    sendFailures.add(end - start, ordering: .relaxed)
                    continue
                } catch {
                    // Nothing to send on yet (one by one, so that they are held), or the batch
                    // failed as a whole: one by one, so that one bad datagram costs only itself.
                }
            }
            for datagram in datagrams[start..<end] where !send(datagram) { held.append(datagram) }
        }
        // Held for want of a valid pair: a DTLS flight. Where the peer agreed, the checks carry
        // it meanwhile (ICETransport+DTLSInChecks.swift); it still goes out once ICE connects.
        if !held.isEmpty { ice.carryInChecks(held) }
        if !output.events.isEmpty { deliver(output.events) }
    }

    /// Datagrams handed to ICE in one call (one `sendmmsg`); a full congestion window of SCTP
    /// packets is several batches.
    private static let batchLimit = 64

    /// Sends one datagram; false when it was held until ICE connects.
    private func send(_ datagram: [UInt8]) -> Bool {
        do {
            try ice.send(datagram)
        } catch .notConnected {
            let held = heldUntilConnected.withLock { held -> Bool in
                guard held != nil, held?.count ?? 0 < Self.heldLimit else { return false }
                held?.append(datagram)
                return true
            }
            if held { return false }
            sendFailures.add(1, ordering: .relaxed)
        } catch {
            sendFailures.add(1, ordering: .relaxed)
        }
        return true
    }

    /// ICE has a usable pair: sends what was held for it, in order; from now on nothing is held
    /// and the checks carry nothing (a peer that already has a flight from them drops the copy
    /// as a replayed record, RFC 6347 §4.1.2.6).
    func iceConnected() {
        guard let held = heldUntilConnected.withLock({ held -> [[UInt8]]? in
            defer { held = nil }
            return held
        }) else { return }
        ice.stopCarryingInChecks()
        for datagram in held {
            do { try ice.send(datagram) } catch { sendFailures.add(1, ordering: .relaxed) }
        }
    }

    /// Datagrams ICE refused (not yet connected, closed): DTLS and SCTP retransmit, media is lost.
    var sendFailureCount: Int { sendFailures.load(ordering: .relaxed) }

    /// Closes DTLS (close_notify) and stops the timer. The SCTP ABORT and the close_notify are
    /// sent on this thread before it returns, not left in the outbox: another thread may be
    /// mid-flush there, and the caller closes ICE next, which would refuse them — the peer then
    /// learns of the close only when consent expires, 30 s later.
    func close() {
        let output = core.withLock { core in
            core.close(now: clock.now())
            return core.takeOutput()
        }
        timer.cancel()
        flush(output)
    }
}

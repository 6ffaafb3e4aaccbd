import Synchronization
import TernCore
import TernICE

/// The thin I/O around `TransportCore`: datagrams from the ICE transport (on its GLib thread),
/// timer expiries (on the timer's queue) and API calls (any thread) each take the core's lock,
/// feed the core with `now`, and — after the lock is released — send the datagrams it produced
/// through ICE and hand its events to the peer connection. Sending outside the lock means a
/// libnice callback never waits on us while we wait on libnice.
final class TransportDriver: Sendable {
    private let ice: IceTransport
    private let clock: any MonotonicClock
    private let core: Mutex<TransportCore>
    private let timer: DriverTimer
    private let deliver: @Sendable ([TransportEvent]) -> Void
    private let sendFailures = Atomic<Int>(0)

    init(core: sending TransportCore, ice: IceTransport, clock: any MonotonicClock,
         deliver: @escaping @Sendable ([TransportEvent]) -> Void) {
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
        let now = clock.now()
        let (result, output, deadline) = try core.withLock { core throws(Failure) -> (Result, TransportCore.Output, Instant?) in
            let result = try body(core, now)
            return (result, core.takeOutput(), core.nextTimeout)
        }
        timer.arm(at: deadline, now: now)
        flush(output)
        return result
    }

    /// A datagram from ICE (runs on the GLib thread).
    func receive(_ datagram: [UInt8]) {
        perform { core, now in core.handle(datagram: datagram, now: now) }
    }

    private func handleTimeout() {
        perform { core, now in core.handleTimeout(now: now) }
    }

    private func flush(_ output: TransportCore.Output) {
        for datagram in output.datagrams {
            do { try ice.send(datagram) } catch { sendFailures.add(1, ordering: .relaxed) }
        }
        if !output.events.isEmpty { deliver(output.events) }
    }

    /// Datagrams ICE refused (not yet connected, closed): DTLS and SCTP retransmit, media is lost.
    var sendFailureCount: Int { sendFailures.load(ordering: .relaxed) }

    /// Closes DTLS (close_notify) and stops the timer.
    func close() {
        perform { core, now in core.close(now: now) }
        timer.cancel()
    }
}

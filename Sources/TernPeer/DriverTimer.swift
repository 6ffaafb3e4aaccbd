import Dispatch
import Synchronization
import TernCore

/// One re-armable timer for a transport driver: the sans-I/O cores report `nextTimeout`, the
/// driver arms this timer at the earliest one, and the handler feeds `handleTimeout(now:)`.
/// Runs its handler on a private serial queue.
///
/// `@unchecked Sendable`: the dispatch source is documented thread-safe (`schedule` and `cancel`
/// may be called from any thread); everything else is behind `Mutex`es.
final class DriverTimer: @unchecked Sendable {
    /// The handler in a class: a closure stored directly in a `Mutex` (`Mutex<(() -> Void)?>`)
    /// gets wrapped in two more reabstraction thunks by every `withLock { $0 }` (the generic
    /// `inout` is converted in and back out), so each call would be slower than the last.
    private final class Handler: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    private final class Shared: Sendable {
        let armedDeadline = Mutex<Instant?>(nil)
        let handler = Mutex<Handler?>(nil)
    }

    private let queue: DispatchQueue
    private let source: any DispatchSourceTimer
    private let shared = Shared()

    init(label: String) {
        queue = DispatchQueue(label: label)
        source = DispatchSource.makeTimerSource(queue: queue)
        let shared = self.shared
        source.setEventHandler {
            shared.armedDeadline.withLock { $0 = nil }
            shared.handler.withLock { $0 }?.body()
        }
        source.schedule(deadline: .distantFuture)
        source.resume()
    }

    /// Sets what runs when the timer fires.
    func setHandler(_ handler: @escaping @Sendable () -> Void) {
        shared.handler.withLock { $0 = Handler(handler) }
    }

    /// Arms the timer at `deadline`, or earlier. A later or absent deadline leaves an armed
    /// timer as it is: the sans-I/O cores move their deadlines later with almost every packet
    /// (each SACK restarts SCTP's T3-rtx timer), and rescheduling a dispatch timer costs a
    /// wake-up of libdispatch's manager thread and a `timerfd_settime` — at 50,000 packets/s,
    /// rescheduling on every packet is a large share of a data-channel transfer's syscalls. A timer that fires before
    /// the real deadline finds nothing due, and the driver arms it again at the new one.
    func arm(at deadline: Instant?, now: Instant) {
        guard let deadline else { return }
        let earlier = shared.armedDeadline.withLock { armed -> Bool in
            if let armed, armed <= deadline { return false }
            armed = deadline
            return true
        }
        guard earlier else { return }
        let delay = max(0, (deadline - now).nanoseconds)
        source.schedule(deadline: .now() + .nanoseconds(Int(delay)), leeway: .microseconds(200))
    }

    /// Stops the timer for good. A handler already running on the queue finishes first;
    /// none runs after this returns.
    func cancel() {
        shared.handler.withLock { $0 = nil }
        source.cancel()
        if !queue.isCurrent { queue.sync {} }
    }
}

private extension DispatchQueue {
    /// Whether the caller runs on this queue (then `sync` on it would deadlock).
    var isCurrent: Bool {
        let key = DispatchSpecificKey<ObjectIdentifier>()
        setSpecific(key: key, value: ObjectIdentifier(self))
        defer { setSpecific(key: key, value: nil) }
        return DispatchQueue.getSpecific(key: key) == ObjectIdentifier(self)
    }
}

internal import CNice
import Dispatch
import Foundation
import Synchronization

/// A GLib main loop on a dedicated thread, owned by Tern.
///
/// libnice does all its work (timers, socket reads, signal emission) on the
/// `GMainContext` it was created with. Each `GLibEventLoop` has its own
/// context and `GMainLoop`, runs them on one `Thread`, and is the only place
/// in Tern that touches GLib's threading. Several `ICETransport`s may share one
/// loop; by default each transport creates its own.
///
/// Work is handed to the loop with `post` (asynchronous, always runs later,
/// never inline) or `sync` (runs inline when already on the loop thread,
/// otherwise blocks the caller until the loop has run it). Closures posted
/// after `stop()` are dropped.
public final class GLibEventLoop: @unchecked Sendable {
    // `context` and `mainLoop` are immutable and reference-counted by GLib
    // (thread-safe); `accepting` is behind its Mutex; the thread itself holds
    // its own GLib references until it exits.
    let context: OpaquePointer
    private let mainLoop: OpaquePointer
    private let accepting = Mutex(true)
    private let exited = DispatchSemaphore(value: 0)
    private let threadID = ThreadIDBox()

    /// The thread's name, for debuggers and logs.
    public let name: String

    /// Starts a new loop thread named `name`.
    public convenience init(name: String = "tern.ice.glib") {
        self.init(name: name, setUp: { true })
    }

    /// Starts a loop whose thread first enters the network namespace at `path` (e.g.
    /// `/run/netns/lab`): every socket libnice opens from it lives there. Linux, needs
    /// CAP_SYS_ADMIN. For network-lab tests.
    static func inNetworkNamespace(_ path: String, name: String) throws(ICEError) -> GLibEventLoop {
        #if os(Linux)
        let entered = NamespaceResult()
        let loop = GLibEventLoop(name: name) {
            let fd = open(path, O_RDONLY)
            guard fd >= 0 else { entered.code.withLock { $0 = errno }; return false }
            defer { close(fd) }
            guard tern_setns_network(fd) == 0 else { entered.code.withLock { $0 = errno }; return false }
            return true
        }
        if let code = entered.code.withLock({ $0 }) {
            throw .invalidConfiguration(reason: "cannot enter network namespace \(path): errno \(code)")
        }
        return loop
        #else
        throw .invalidConfiguration(reason: "network namespaces need Linux")
        #endif
    }

    /// `setUp` runs first on the new thread; if it returns false the loop still runs (so
    /// teardown paths stay uniform) and the caller reports the failure.
    private init(name: String, setUp: @escaping @Sendable () -> Bool) {
        self.name = name
        context = g_main_context_new()
        mainLoop = g_main_loop_new(context, tern_g_false)
        let refs = LoopRefs(context: g_main_context_ref(context), mainLoop: g_main_loop_ref(mainLoop))
        let exited = self.exited
        let threadID = self.threadID
        let started = DispatchSemaphore(value: 0)
        let thread = Thread {
            threadID.value.withLock { $0 = pthread_self() }
            _ = setUp()
            started.signal()
            g_main_context_push_thread_default(refs.context)
            g_main_loop_run(refs.mainLoop)
            // Run what was posted before `stop()` (bounded: a timer that is
            // always ready must not keep a stopped loop alive).
            var drained = 0
            while drained < 1_000, g_main_context_iteration(refs.context, tern_g_false) != 0 { drained += 1 }
            g_main_context_pop_thread_default(refs.context)
            g_main_loop_unref(refs.mainLoop)
            g_main_context_unref(refs.context)
            exited.signal()
        }
        thread.name = name
        thread.start()
        started.wait()
    }

    deinit {
        stop()
        g_main_loop_unref(mainLoop)
        g_main_context_unref(context)
    }

    /// True when called from the loop's own thread (e.g. inside a libnice callback).
    public var isCurrentThread: Bool {
        guard let id = threadID.value.withLock({ $0 }) else { return false }
        return pthread_equal(id, pthread_self()) != 0
    }

    /// Stops the loop: closures posted earlier still run, later ones are dropped.
    /// Waits for the thread to exit unless called from the loop thread itself
    /// (then the thread exits as soon as the current callback returns).
    public func stop() {
        let wasAccepting = accepting.withLock { value -> Bool in
            defer { value = false }
            return value
        }
        guard wasAccepting else { return }
        let loop = LoopRefs(context: context, mainLoop: mainLoop)
        attachIdle { g_main_loop_quit(loop.mainLoop) }
        if !isCurrentThread { exited.wait(); exited.signal() }
    }

    /// Runs `body` on the loop thread later (never inline). Returns false if the loop is stopped.
    @discardableResult
    func post(_ body: @escaping () -> Void) -> Bool {
        accepting.withLock { open in
            guard open else { return false }
            attachIdle(body)
            return true
        }
    }

    /// Runs `body` on the loop thread after `delay` (a GLib timeout source). Returns false if
    /// the loop is stopped; a timer pending at `stop()` never fires (its closure is released).
    @discardableResult
    func post(after delay: Duration, _ body: @escaping () -> Void) -> Bool {
        accepting.withLock { open in
            guard open else { return false }
            let ms = guint(max(0, min(delay.milliseconds.rounded(.up), Double(UInt32.max))))
            guard let source = g_timeout_source_new(ms) else { return false }
            attach(source, body)
            return true
        }
    }

    /// Runs `body` on the loop thread and returns its result: inline when already
    /// there, otherwise waits for the loop. Returns nil if the loop is stopped.
    func sync<T>(_ body: () -> T) -> T? {
        if isCurrentThread { return body() }
        return withoutActuallyEscaping(body) { body -> T? in
            // The job GLib keeps until its destroy-notify holds only `cell`; `cell` drops
            // `body` as soon as it ran, so `body` never outlives this call.
            let cell = SyncCell(body)
            let done = DispatchSemaphore(value: 0)
            let posted = post {
                cell.run()
                done.signal()
            }
            guard posted else {
                cell.work = nil
                return nil
            }
            done.wait()
            return cell.result
        }
    }

    /// Waits until the loop thread has exited (after `stop()`); returns at once on the loop thread.
    func waitUntilExited() {
        guard !isCurrentThread else { return }
        exited.wait()
        exited.signal()
    }

    /// An idle source at default priority; the closure box is released by GLib's
    /// destroy-notify exactly once, whether or not the source ever ran.
    private func attachIdle(_ body: @escaping () -> Void) {
        guard let source = g_idle_source_new() else { return }
        g_source_set_priority(source, 0) // G_PRIORITY_DEFAULT: same queue as libnice's timers.
        attach(source, body)
    }

    private func attach(_ source: UnsafeMutablePointer<GSource>, _ body: @escaping () -> Void) {
        let job = Unmanaged.passRetained(LoopJob(body)).toOpaque()
        g_source_set_callback(source, loopJobRun, job, loopJobRelease)
        g_source_attach(source, context)
        g_source_unref(source)
    }
}

/// The loop thread's id, set once when the thread starts.
private final class ThreadIDBox: Sendable {
    let value = Mutex<pthread_t?>(nil)
}

/// What `setns` said, carried back from the loop thread.
private final class NamespaceResult: Sendable {
    let code = Mutex<Int32?>(nil)
}

/// GLib pointers handed to the loop thread (GLib reference counts are atomic).
private struct LoopRefs: @unchecked Sendable {
    let context: OpaquePointer
    let mainLoop: OpaquePointer
}

/// A closure queued on the loop.
private final class LoopJob {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}

/// A `sync` job: the work and its result, handed between threads in the order set by
/// the semaphore in `sync`.
private final class SyncCell<T>: @unchecked Sendable {
    var work: (() -> T)?
    var result: T?
    init(_ work: @escaping () -> T) { self.work = work }
    func run() {
        result = work?()
        work = nil
    }
}

private let loopJobRun: GSourceFunc = { data in
    guard let data else { return tern_g_false }
    Unmanaged<LoopJob>.fromOpaque(data).takeUnretainedValue().body()
    return tern_g_false // G_SOURCE_REMOVE
}

private let loopJobRelease: GDestroyNotify = { data in
    guard let data else { return }
    Unmanaged<LoopJob>.fromOpaque(data).release()
}

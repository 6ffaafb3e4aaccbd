internal import CNice
import Synchronization
import TernCore

/// Reads libnice's debug log for the check-list lines (`LibniceCheckLine`) of the agents whose
/// transports asked for them (`ICEConfiguration.tracePairChecks`), and files each line with its
/// transport's `PairCheckLog`.
///
/// Process-wide, because libnice's debug switch and GLib's log handlers are: libnice formats its
/// debug lines only while at least one transport is registered (then every agent in the process
/// pays for the formatting, which is why tracing is opt-in). The handler runs on whichever
/// thread libnice logs from (the agents' loop threads), usually with the agent's lock held, so
/// it only parses and takes two locks that are never held while calling libnice.
enum NiceDebugTap {
    private static let logs = Mutex<[UInt: PairCheckLog]>([:])

    /// Once per process: our handler for GLib domain "libnice", debug level.
    private static let handlerInstalled: Bool = {
        g_log_set_handler("libnice", G_LOG_LEVEL_DEBUG, handler, nil)
        return true
    }()

    /// `void (*GLogFunc)(const gchar *log_domain, GLogLevelFlags log_level, const gchar *message,
    /// gpointer user_data)`.
    private static let handler: @convention(c) (UnsafePointer<gchar>?, GLogLevelFlags, UnsafePointer<gchar>?, gpointer?) -> Void = {
        domain, level, message, _ in
        // Anyone who set NICE_DEBUG and G_MESSAGES_DEBUG still sees the lines on stderr.
        g_log_default_handler(domain, level, message, nil)
        guard let message, let (agent, line) = LibniceCheckLine.parse(Substring(String(cString: message))) else { return }
        logs.withLock { $0[agent] }?.take(line)
    }

    /// How many transports are registered (for tests).
    static var registeredCount: Int { logs.withLock { $0.count } }

    /// Starts filing lines about `agent` (a `NiceAgent *`) with `log`.
    static func register(agent: OpaquePointer, log: PairCheckLog) {
        _ = handlerInstalled
        logs.withLock { logs in
            if logs.isEmpty { nice_debug_enable(tern_g_false) }
            logs[UInt(bitPattern: agent)] = log
        }
    }

    /// Stops filing lines about `agent`; the last one out turns libnice's debug output off again
    /// (unless the environment asked for it).
    static func unregister(agent: OpaquePointer) {
        logs.withLock { logs in
            guard logs.removeValue(forKey: UInt(bitPattern: agent)) != nil, logs.isEmpty else { return }
            if getenv("NICE_DEBUG") == nil { nice_debug_disable(tern_g_false) }
        }
    }
}

/// One transport's share of libnice's check-list narration, as ICE trace entries (merged into
/// `ICETransport.trace` by time).
final class PairCheckLog: Sendable {
    /// A long call's trace stays bounded: lines past this are counted, not kept.
    static let maximumEntries = 1_000

    private struct State {
        /// libnice's pair pointers → the addresses it printed when it formed the pair.
        var pairs: [UInt: (local: String, remote: String)] = [:]
        /// Connectivity-check requests sent per pair since its last state change.
        var requests: [UInt: Int] = [:]
        var entries: [ICETrace.Entry] = []
        var dropped = 0
    }

    private let state = Mutex(State())
    private let clock: any MonotonicClock

    init(clock: any MonotonicClock) { self.clock = clock }

    /// The entries so far, and how many were not kept.
    var snapshot: (entries: [ICETrace.Entry], dropped: Int) { state.withLock { ($0.entries, $0.dropped) } }

    func take(_ line: LibniceCheckLine) {
        let time = clock.now().nanoseconds
        state.withLock { s in
            func append(_ event: ICETrace.Event) {
                guard s.entries.count < Self.maximumEntries else { s.dropped += 1; return }
                s.entries.append(ICETrace.Entry(time: time, event: event))
            }
            switch line {
            case let .newPair(pair, local, remote):
                s.pairs[pair] = (local, remote)
                s.requests[pair] = 0
                append(.pairCheck(local: local, remote: remote, state: "FROZEN", requestsSent: 0))
            case let .pairState(pair, newState):
                // libnice prints a new pair's FROZEN before the line that names its addresses
                // (reported above); a pointer we know nothing of is another agent's or a freed pair's.
                guard newState != "FROZEN", let p = s.pairs[pair] else { return }
                let sent = s.requests[pair] ?? 0
                if newState != "IN_PROGRESS" { s.requests[pair] = 0 }
                append(.pairCheck(local: p.local, remote: p.remote, state: newState, requestsSent: sent))
            case let .checkSent(pair):
                if s.pairs[pair] != nil { s.requests[pair, default: 0] += 1 }
            case let .nominated(pair, detail):
                guard let p = s.pairs[pair] else { return }
                append(.pairNominated(local: p.local, remote: p.remote, detail: detail))
            case let .stoppingCriterion(criterion):
                append(.checkListNote(note: "stopping criterion: \(criterion)"))
            }
        }
    }
}

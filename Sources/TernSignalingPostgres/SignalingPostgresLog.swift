import Foundation
public import Logging
import PostgresNIO
import Synchronization
public import TernCore
public import TernSignaling

/// Several signaling nodes on one PostgreSQL: a `SignalingSequencer` whose shared order is a
/// table. Each node appends its routers' inputs (`append`: the one-row head is locked for the
/// transaction, so sequence numbers are handed out, and become visible, in order with no gaps),
/// NOTIFYs, and every node reads the log in order and applies it to its own copy of the router
/// (`SignalingSwitchboard.applySequenced`). The router is deterministic, so all copies agree and
/// the protocol's rules exist once; a node writes only to its own connections.
///
/// Nodes heartbeat every second; one silent for `nodeDeadAfter` is declared down by the first
/// node to notice (an `UPDATE … RETURNING` decides), which appends `nodeDown`: every router drops
/// that node's connections and holds their calls for a `resume` on another node. The lowest live
/// node writes a snapshot of the router every `snapshotInterval` and deletes what every live
/// node has applied; a joining node starts from the newest snapshot (Docs/SIGNALING.md).
public final class SignalingPostgresLog: SignalingSequencer, Sendable {
    /// Timers and bounds.
    public struct Settings: Sendable {
        public var heartbeatInterval: Duration = .seconds(1)
        /// A node whose heartbeat is older than this is declared down.
        public var nodeDeadAfter: Duration = .seconds(5)
        public var snapshotInterval: Duration = .seconds(5)
        /// Inputs per append transaction and rows per read.
        public var batchLimit = 2_000
        /// Inputs waiting to be appended (the database slow or away); more are dropped and counted.
        public var maxPending = 100_000
        /// How often the reader looks at the log without a NOTIFY (a missed one, a lost LISTEN).
        public var pollInterval: Duration = .milliseconds(200)

        public init() {}
    }

    /// What `/health` and `/metrics` report.
    public struct Status: Sendable, Hashable {
        public var node: UInt16
        /// The last heartbeat (or other statement) reached the database.
        public var databaseReachable: Bool
        /// Another node declared this one down (it stalled): its connections were dropped everywhere.
        public var fenced: Bool
        /// The last sequence number applied here, and the highest this node has heard of.
        public var appliedSeq: Int64
        public var knownSeq: Int64
        /// Inputs waiting to be appended; inputs dropped because too many waited.
        public var pendingInputs: Int
        public var droppedInputs: Int
        /// Log rows that did not decode (skipped on every node alike).
        public var undecodableRows: Int
    }

    private struct State: ~Copyable {
        var outbox: [(input: SignalingRouterInput, at: Instant, origin: Int64)] = []
        /// The next input's origin: this process's start in wall-clock nanoseconds, then +1 each,
        /// so a recycled node number never repeats an earlier process's origins.
        var nextOrigin: Int64 = 0
        /// The writer has taken a batch and not committed it yet.
        var appending = false
        var applied: Int64 = 0
        var known: Int64 = 0
        var lastNow = Instant.zero
        var switchboard: SignalingSwitchboard?
        var reachable = true
        var fenced = false
        var isCompactor = false
        var lastSnapshot = ContinuousClock.now
        /// The log position of the newest snapshot this node wrote.
        var snapshotSeq: Int64 = 0
        var dropped = 0
        var undecodable = 0
        var tasks: [Task<Void, Never>] = []
    }

    public let node: UInt16
    public let settings: Settings
    private let client: PostgresClient
    private let clientTask: Task<Void, Never>
    private let logger: Logger
    private let state = Mutex(State())
    private let writerNudge: AsyncStream<Void>.Continuation
    private let writerNudges: AsyncStream<Void>
    private let readerNudge: AsyncStream<Void>.Continuation
    private let readerNudges: AsyncStream<Void>
    private init(node: UInt16, client: PostgresClient, clientTask: Task<Void, Never>, settings: Settings,
                 logger: Logger) {
        self.node = node
        self.client = client
        self.clientTask = clientTask
        self.settings = settings
        self.logger = logger
        (writerNudges, writerNudge) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
        (readerNudges, readerNudge) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
        let start = now().nanoseconds
        state.withLock { $0.nextOrigin = start }
    }

    /// Connects to `url`, creates or migrates the schema, and registers a new node (its number is
    /// fresh: a restarted process is a new node).
    public static func connect(url: String, settings: Settings = Settings(), logger: Logger) async throws(SignalingPostgresError)
        -> SignalingPostgresLog
    {
        let client = PostgresClient(configuration: try PostgresURL.configuration(url), backgroundLogger: logger)
        let clientTask = Task { await client.run() }
        do {
            try await migrate(client, logger: logger)
            let rows = try await client.query("INSERT INTO tern_signal_nodes (node) VALUES (nextval('tern_signal_node_ids')) RETURNING node",
                                              logger: logger)
            var node: Int32 = 0
            for try await value in rows.decode(Int32.self) { node = value }
            return SignalingPostgresLog(node: UInt16(truncatingIfNeeded: node), client: client, clientTask: clientTask,
                                        settings: settings, logger: logger)
        } catch {
            clientTask.cancel()
            throw .database("connecting to \(url)", String(reflecting: error))
        }
    }

    private static func migrate(_ client: PostgresClient, logger: Logger) async throws {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(7405116)", logger: logger)
            try await connection.query("CREATE TABLE IF NOT EXISTS tern_signal_schema (version integer NOT NULL)", logger: logger)
            var version: Int32?
            for try await value in try await connection.query("SELECT version FROM tern_signal_schema", logger: logger)
                .decode(Int32.self) { version = value }
            if version == nil {
                try await connection.query("INSERT INTO tern_signal_schema (version) VALUES (0)", logger: logger)
            }
            let from = Int(version ?? 0)
            for (index, statements) in SignalingPostgresSchema.migrations.enumerated() where index >= from {
                for sql in statements { try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger) }
                try await connection.query("UPDATE tern_signal_schema SET version = \(Int32(index + 1))", logger: logger)
            }
        }
    }

    // MARK: SignalingSequencer

    public func now() -> Instant {
        Instant(nanoseconds: Int64(Date().timeIntervalSince1970 * 1_000_000_000))
    }

    public func submit(_ input: SignalingRouterInput) {
        let stamped = self.stamped([input])
        let accepted = state.withLock { state in
            guard state.outbox.count < settings.maxPending else {
                state.dropped += 1
                return false
            }
            state.outbox += stamped
            return true
        }
        if accepted {
            writerNudge.yield()
        } else {
            logger.error("signaling log: \(settings.maxPending) inputs wait for the database; one dropped")
        }
    }

    // MARK: Joining and running

    /// Loads the newest snapshot into `switchboard`, applies the log after it, and starts the
    /// writer, the reader, LISTEN and the heartbeat. Throws if the shared state was made by nodes
    /// configured otherwise.
    public func join(_ switchboard: SignalingSwitchboard) async throws(SignalingPostgresError) {
        do {
            var snapshot: (Int64, String)?
            for try await row in try await client.query(
                "SELECT seq, router FROM tern_signal_snapshots ORDER BY seq DESC LIMIT 1", logger: logger
            ).decode((Int64, String).self) { snapshot = row }
            if let (seq, text) = snapshot {
                let router = try JSONDecoder().decode(SignalingRouter.self, from: Data(text.utf8))
                let mine = switchboard.routerConfiguration
                guard router.verifiesTokens == mine.verifiesTokens else {
                    throw SignalingPostgresError.configurationMismatch(
                        "the other nodes \(router.verifiesTokens ? "check tokens (a secret)" : "accept any token (no secret)")")
                }
                guard router.limits == mine.limits else {
                    throw SignalingPostgresError.configurationMismatch("the other nodes use other SignalingLimits")
                }
                guard router.push == mine.push else {
                    // Every node applies every invite: one pushing and one answering `unavailable`
                    // would build different states from the same log.
                    throw SignalingPostgresError.configurationMismatch(
                        "the other nodes push invitations \(router.push.rawValue), this one \(mine.push.rawValue) (--push-webhook, --push-always)")
                }
                switchboard.restore(router)
                state.withLock { $0.applied = seq }
            }
            state.withLock { $0.switchboard = switchboard }
            try await readNew()
        } catch let error as SignalingPostgresError {
            throw error
        } catch {
            throw .database("joining", String(reflecting: error))
        }
        let tasks = [
            Task { [self] in await runWriter() },
            Task { [self] in await runReader() },
            Task { [self] in await runListener() },
            Task { [self] in await runHeartbeat() },
            Task { [self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: settings.pollInterval)
                    readerNudge.yield()
                }
            },
        ]
        state.withLock { $0.tasks = tasks }
        logger.info("signaling node \(node) joined at log position \(state.withLock { $0.applied })")
    }

    /// Leaves: this node's connections are dropped in every router (their calls held for a
    /// resume elsewhere), what waits is appended, the node is marked down, the tasks stop.
    public func leave() async {
        submit(.nodeDown(node: node))
        // At most 2 s for what waits (the nodeDown last) to be committed; past that the others
        // declare this node down by its silent heartbeat anyway.
        for _ in 0..<200 where state.withLock({ !$0.outbox.isEmpty || $0.appending }) {
            try? await Task.sleep(for: .milliseconds(10))
        }
        _ = try? await client.query("UPDATE tern_signal_nodes SET down = true WHERE node = \(Int32(node))", logger: logger)
        let tasks = state.withLock { state in
            defer { state.tasks = [] }
            return state.tasks
        }
        tasks.forEach { $0.cancel() }
        clientTask.cancel()
    }

    public var status: Status {
        state.withLock { state in
            Status(node: node, databaseReachable: state.reachable, fenced: state.fenced, appliedSeq: state.applied,
                   knownSeq: max(state.known, state.applied), pendingInputs: state.outbox.count,
                   droppedInputs: state.dropped, undecodableRows: state.undecodable)
        }
    }

    // MARK: Writer

    private func runWriter() async {
        for await _ in writerNudges {
            // A batch that failed is retried as it was, alone: if its commit went through and only
            // the reply was lost, the unique origins refuse it whole, and nothing else is lost.
            var retry: [(input: SignalingRouterInput, at: Instant, origin: Int64)]?
            while !Task.isCancelled {
                let batch = retry ?? state.withLock { state in
                    let batch = Array(state.outbox.prefix(settings.batchLimit))
                    state.outbox.removeFirst(batch.count)
                    state.appending = !batch.isEmpty
                    return batch
                }
                guard !batch.isEmpty else { break }
                do {
                    if try await appendOnce(batch) == false {
                        logger.notice("signaling log: a retried batch was committed already; not appended twice")
                    }
                } catch {
                    logger.error("signaling log: append failed, retrying: \(String(reflecting: error))")
                    state.withLock { $0.reachable = false }
                    retry = batch
                    try? await Task.sleep(for: .milliseconds(200))
                    continue
                }
                retry = nil
                state.withLock { state in
                    state.reachable = true
                    state.appending = false
                }
            }
        }
    }

    /// Appends `batch` unless it was appended before (its origins are in the log already: an
    /// earlier try committed and lost its reply). True when appended now.
    func appendOnce(_ batch: [(input: SignalingRouterInput, at: Instant, origin: Int64)]) async throws -> Bool {
        do {
            try await append(batch)
            return true
        } catch where Self.isUniqueViolation(error) {
            return false
        }
    }

    /// `inputs` with the time and their origins (as `submit` does; tests of `appendOnce` too).
    func stamped(_ inputs: [SignalingRouterInput]) -> [(input: SignalingRouterInput, at: Instant, origin: Int64)] {
        let at = now()
        return state.withLock { state in
            inputs.map { input in
                defer { state.nextOrigin += 1 }
                return (input, at, state.nextOrigin)
            }
        }
    }

    /// One transaction: take the next `batch.count` sequence numbers from the head (its row lock
    /// orders appends), insert the rows, NOTIFY at commit.
    private func append(_ batch: [(input: SignalingRouterInput, at: Instant, origin: Int64)]) async throws {
        let encoder = JSONEncoder()
        let inputs = try batch.map { String(decoding: try encoder.encode($0.input), as: UTF8.self) }
        let times = batch.map { $0.at.nanoseconds }
        let origins = batch.map(\.origin)
        let count = Int64(batch.count)
        let node = Int32(self.node)
        let top: Int64 = try await client.withTransaction(logger: logger) { connection in
            var top: Int64 = 0
            for try await value in try await connection.query(
                "UPDATE tern_signal_log_head SET seq = seq + \(count) RETURNING seq", logger: logger
            ).decode(Int64.self) { top = value }
            let base = top - count
            try await connection.query("""
                INSERT INTO tern_signal_log (seq, node, at, input, origin)
                SELECT \(base) + t.ord, \(node), t.at, t.input, t.origin
                FROM unnest(\(times)::bigint[], \(inputs)::text[], \(origins)::bigint[])
                    WITH ORDINALITY AS t(at, input, origin, ord)
                """, logger: logger)
            try await connection.query("SELECT pg_notify('tern_signal_log', \(String(top)))", logger: logger)
            return top
        }
        state.withLock { $0.known = max($0.known, top) }
    }

    /// PostgreSQL's unique_violation (23505), bare or inside a transaction's error.
    private static func isUniqueViolation(_ error: any Error) -> Bool {
        let inner = (error as? PostgresTransactionError)?.closureError ?? error
        return (inner as? PSQLError)?.serverInfo?[.sqlState] == "23505"
    }

    // MARK: Reader

    private func runReader() async {
        for await _ in readerNudges {
            guard !Task.isCancelled else { return }
            do {
                try await readNew()
            } catch {
                logger.error("signaling log: read failed: \(String(reflecting: error))")
                state.withLock { $0.reachable = false }
            }
        }
    }

    private func runListener() async {
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: "tern_signal_log") { notifications in
                        for try await notification in notifications {
                            if let seq = Int64(notification.payload) { state.withLock { $0.known = max($0.known, seq) } }
                            readerNudge.yield()
                        }
                    }
                }
            } catch {
                logger.notice("signaling log: LISTEN ended (\(String(reflecting: error))); polling meanwhile")
            }
            try? await Task.sleep(for: .milliseconds(500))
        }
    }

    /// Applies every row after the last applied one, in order; takes a snapshot when due.
    private func readNew() async throws {
        let decoder = JSONDecoder()
        while true {
            let (from, switchboard) = state.withLock { ($0.applied, $0.switchboard) }
            guard let switchboard else { return }
            var batch: [(SignalingRouterInput, Instant)] = []
            var last = from
            var undecodable = 0
            var lastNow = state.withLock { $0.lastNow }
            for try await (seq, at, text) in try await client.query(
                "SELECT seq, at, input FROM tern_signal_log WHERE seq > \(from) ORDER BY seq LIMIT \(Int64(settings.batchLimit))",
                logger: logger
            ).decode((Int64, Int64, String).self) {
                guard seq == last + 1 else {
                    // Rows this node had not applied were compacted away: it was declared down.
                    fence("log position \(last + 1) is gone (compacted while this node was away)")
                    return
                }
                last = seq
                // Every node skips the same undecodable row, so the routers still agree.
                guard let input = try? decoder.decode(SignalingRouterInput.self, from: Data(text.utf8)) else {
                    undecodable += 1
                    continue
                }
                // One time line for every node: the log's order, never going back.
                lastNow = max(lastNow, Instant(nanoseconds: at))
                batch.append((input, lastNow))
            }
            let snapshotDue = state.withLock { state in
                state.isCompactor && ContinuousClock.now - state.lastSnapshot >= settings.snapshotInterval
            }
            guard last > from else {
                // Idle: a snapshot of what was applied since the last one, or just the deletion of
                // what every node has applied by now.
                guard snapshotDue else { return }
                let stale = state.withLock { state in
                    state.lastSnapshot = ContinuousClock.now
                    return state.snapshotSeq < state.applied
                }
                if stale, let router = switchboard.applySequenced([], snapshot: true) {
                    await compact(router, at: from)
                } else {
                    await deleteApplied(upTo: state.withLock { $0.snapshotSeq })
                }
                return
            }
            let router = switchboard.applySequenced(batch, snapshot: snapshotDue)
            state.withLock { state in
                state.applied = last
                state.lastNow = lastNow
                state.undecodable += undecodable
                if router != nil { state.lastSnapshot = ContinuousClock.now }
            }
            if let router { await compact(router, at: last) }
            if last - from < Int64(settings.batchLimit) { return }
        }
    }

    /// Stores the router as of `seq` and deletes the snapshots before it and the log rows every
    /// live node has applied.
    private func compact(_ router: SignalingRouter, at seq: Int64) async {
        do {
            let text = String(decoding: try JSONEncoder().encode(router), as: UTF8.self)
            try await client.query(
                "INSERT INTO tern_signal_snapshots (seq, router) VALUES (\(seq), \(text)) ON CONFLICT DO NOTHING", logger: logger)
            try await client.query("DELETE FROM tern_signal_snapshots WHERE seq < \(seq)", logger: logger)
            state.withLock { $0.snapshotSeq = max($0.snapshotSeq, seq) }
        } catch {
            logger.error("signaling log: snapshot at \(seq) failed: \(String(reflecting: error))")
            return
        }
        await deleteApplied(upTo: seq)
    }

    /// Deletes the log rows up to `seq` (a snapshot's) that every live node has applied.
    private func deleteApplied(upTo seq: Int64) async {
        guard seq > 0 else { return }
        do {
            try await client.query("""
                DELETE FROM tern_signal_log WHERE seq <= LEAST(\(seq),
                    (SELECT coalesce(min(applied_seq), 0) FROM tern_signal_nodes WHERE NOT down))
                """, logger: logger)
        } catch {
            logger.error("signaling log: deleting applied rows failed: \(String(reflecting: error))")
        }
    }

    // MARK: Heartbeat and failure detection

    private func runHeartbeat() async {
        let deadAfter = Double(settings.nodeDeadAfter.components.seconds)
            + Double(settings.nodeDeadAfter.components.attoseconds) / 1e18
        while !Task.isCancelled {
            do {
                let applied = state.withLock { $0.applied }
                var down = false
                for try await value in try await client.query(
                    "UPDATE tern_signal_nodes SET heartbeat_at = now(), applied_seq = \(applied) WHERE node = \(Int32(node)) RETURNING down",
                    logger: logger
                ).decode(Bool.self) { down = value }
                if down { fence("another node declared this one down (its heartbeat stopped)") }
                var dead: [Int32] = []
                for try await value in try await client.query("""
                    UPDATE tern_signal_nodes SET down = true
                    WHERE NOT down AND heartbeat_at < now() - make_interval(secs => \(deadAfter)) RETURNING node
                    """, logger: logger).decode(Int32.self) { dead.append(value) }
                for node in dead {
                    logger.warning("signaling node \(node) stopped heartbeating: its connections are dropped, their calls held for a resume")
                    submit(.nodeDown(node: UInt16(truncatingIfNeeded: node)))
                }
                try await client.query(
                    "DELETE FROM tern_signal_nodes WHERE down AND heartbeat_at < now() - interval '10 minutes'", logger: logger)
                var lowest: Int32?
                for try await value in try await client.query(
                    "SELECT min(node) FROM tern_signal_nodes WHERE NOT down", logger: logger
                ).decode(Int32?.self) { lowest = value }
                state.withLock { state in
                    state.reachable = true
                    state.isCompactor = lowest == Int32(node)
                }
            } catch {
                logger.error("signaling log: heartbeat failed: \(String(reflecting: error))")
                state.withLock { $0.reachable = false }
            }
            try? await Task.sleep(for: settings.heartbeatInterval)
        }
    }

    private func fence(_ why: String) {
        let (first, switchboard) = state.withLock { state in
            defer { state.fenced = true }
            return (!state.fenced, state.switchboard)
        }
        guard first else { return }
        logger.critical("signaling node \(node) fenced: \(why); closing its connections (clients reconnect to other nodes)")
        switchboard?.closeAll(reason: "this signaling node was declared down; reconnect")
    }
}

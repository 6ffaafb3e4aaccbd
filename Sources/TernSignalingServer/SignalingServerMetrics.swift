import Metrics
import Prometheus
import Synchronization
import TernSignaling
import TernSignalingPostgres

/// The server's metrics, `GET /metrics` in Prometheus text format. Recorded through swift-metrics
/// on a factory of the server's own (no global `MetricsSystem.bootstrap`, so an application that
/// embeds the server keeps its own metrics system) and emitted by swift-prometheus.
///
/// The router keeps plain totals and gauges (it is sans-I/O and knows no metrics library); a scrape
/// reads them under the switchboard's lock (`SignalingSwitchboard.snapshot`), sets the gauges and
/// adds to each counter what its total grew by since the last scrape.
final class SignalingServerMetrics: Sendable {
    /// Message handling time: from a frame read off a WebSocket until the router has decided and
    /// every frame it caused is queued for its connection (lock wait included).
    static let handlingName = "tern_signal_message_handling_seconds"

    let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    private let handling: Metrics.Timer
    /// Totals at the previous scrape, by counter name and labels.
    private let reported = Mutex<[String: Int]>([:])

    init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.durationHistogramBuckets[Self.handlingName] = [
            .microseconds(50), .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1),
            .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(100),
        ]
        self.factory = factory
        handling = Metrics.Timer(label: Self.handlingName, factory: factory)
    }

    /// One frame handled in `duration`.
    func recordHandling(_ duration: Duration) {
        handling.recordNanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    /// The metrics as of now, in Prometheus text format.
    func scrape(_ snapshot: SignalingSwitchboard.Snapshot, server counters: SignalingServerCounters,
                log: SignalingPostgresLog.Status?, push: SignalingPushWebhook.Counters?) -> String {
        if let push {
            counter("tern_signal_push_attempts_total", push.attempts)
            counter("tern_signal_pushes_total", push.delivered, [("result", "delivered")])
            counter("tern_signal_pushes_total", push.expired, [("result", "expired")])
            counter("tern_signal_pushes_total", push.dropped, [("result", "dropped")])
            counter("tern_signal_push_failures_total", push.failures)
        }
        if let log {
            // The shared log (PostgreSQL mode): what waits to be appended (the NOTIFY backlog of
            // this node) and how far this node's router lags the newest position it heard of.
            gauge("tern_signal_log_pending_inputs", log.pendingInputs)
            gauge("tern_signal_log_lag", Int(max(0, log.knownSeq - log.appliedSeq)))
            gauge("tern_signal_log_applied_seq", Int(log.appliedSeq))
            gauge("tern_signal_database_reachable", log.databaseReachable ? 1 : 0)
            counter("tern_signal_log_dropped_inputs_total", log.droppedInputs)
            counter("tern_signal_log_undecodable_rows_total", log.undecodableRows)
        }
        let g = snapshot.gauges
        gauge("tern_signal_connections", snapshot.openConnections)
        gauge("tern_signal_registrations", g.registered)
        gauge("tern_signal_calls", g.callsRinging, [("state", "ringing")])
        gauge("tern_signal_calls", g.callsAnswered, [("state", "answered")])
        gauge("tern_signal_connections_away", g.connectionsAway)
        gauge("tern_signal_messages_held", g.messagesHeld)
        gauge("tern_signal_queue_requests", g.queueRequests)
        gauge("tern_signal_group_calls", g.groupCalls)
        let s = snapshot.stats
        counter("tern_signal_invites_total", s.invites, [("result", "ringing")])
        counter("tern_signal_invites_total", s.invitesUnavailable, [("result", "unavailable")])
        counter("tern_signal_accepts_total", s.accepts)
        counter("tern_signal_group_invites_total", s.groupInvites)
        counter("tern_signal_pushes_requested_total", s.pushesRequested)
        counter("tern_signal_pending_invites_delivered_total", s.pendingInvitesDelivered)
        counter("tern_signal_resumes_total", s.callsResumed, [("result", "resumed")])
        counter("tern_signal_resumes_total", s.resumesGone, [("result", "callGone")])
        counter("tern_signal_held_calls_expired_total", s.heldCallsExpired)
        for (code, count) in snapshot.refusals { counter("tern_signal_refusals_total", count, [("code", code.rawValue)]) }
        counter("tern_signal_slow_consumers_closed_total", snapshot.slowConsumersClosed)
        counter("tern_signal_connections_refused_total", snapshot.connectionsRefused, [("reason", "full")])
        counter("tern_signal_connections_refused_total", counters.originsRefused, [("reason", "origin")])
        counter("tern_signal_connections_refused_total", counters.upgradeTimeouts, [("reason", "upgradeTimeout")])
        counter("tern_signal_write_timeouts_total", counters.writeTimeouts)
        return registry.emitToString()
    }

    private func gauge(_ name: String, _ value: Int, _ labels: [(String, String)] = []) {
        Gauge(label: name, dimensions: labels, factory: factory).record(value)
    }

    /// Adds to the counter what `total` grew by since the last scrape.
    private func counter(_ name: String, _ total: Int, _ labels: [(String, String)] = []) {
        let key = ([name] + labels.map { "\($0.0)=\($0.1)" }).joined(separator: ",")
        let growth = reported.withLock { reported in
            defer { reported[key] = total }
            return total - (reported[key] ?? 0)
        }
        let counter = Counter(label: name, dimensions: labels, factory: factory)
        if growth > 0 { counter.increment(by: Int64(growth)) } else { counter.increment(by: 0) }
    }
}

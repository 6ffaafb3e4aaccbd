#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Hummingbird
import NIOCore
import TernSignaling
import TernSignalingPostgres

/// The server's plain HTTP routes beside the WebSocket at `/v1`: `GET /health` and `GET /metrics`.
enum SignalingServerRoutes {
    /// The body of `GET /health`.
    struct Health: Codable, Sendable {
        /// `ok` while the server serves.
        var status = "ok"
        /// Where the server keeps its state: `memory` (one node) or `postgres` (several nodes).
        var storage = "memory"
        /// PostgreSQL mode: this node's number, whether its last statement reached the database,
        /// whether other nodes declared it down, how far it applied the shared log.
        var node: Int?
        var database: String?
        var fenced: Bool?
        var appliedSeq: Int64?
        var connections: Int
        var registrations: Int
        var calls: Int
        var uptimeSeconds: Double
    }

    static func router(switchboard: SignalingSwitchboard, counters: SignalingServerCounters,
                       metrics: SignalingServerMetrics, postgres: SignalingPostgresLog?,
                       pushWebhook: SignalingPushWebhook?) -> Router<BasicRequestContext> {
        let router = Router()
        let started = ContinuousClock.now
        router.get("/health") { _, _ -> Response in
            let g = switchboard.snapshot().gauges
            let uptime = ContinuousClock.now - started
            var health = Health(connections: switchboard.connectionCount, registrations: g.registered,
                                calls: g.callsRinging + g.callsAnswered,
                                uptimeSeconds: Double(uptime.components.seconds) + Double(uptime.components.attoseconds) / 1e18)
            var status = HTTPResponse.Status.ok
            if let log = postgres?.status {
                health.storage = "postgres"
                health.node = Int(log.node)
                health.database = log.databaseReachable ? "reachable" : "unreachable"
                health.fenced = log.fenced
                health.appliedSeq = log.appliedSeq
                if log.fenced || !log.databaseReachable {
                    health.status = "degraded"
                    status = .serviceUnavailable
                }
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let body = (try? encoder.encode(health)) ?? Data()
            return Response(status: status, headers: [.contentType: "application/json"],
                            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
        }
        router.get("/metrics") { _, _ -> Response in
            let text = metrics.scrape(switchboard.snapshot(), server: counters, log: postgres?.status,
                                      push: pushWebhook?.counters)
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
        }
        return router
    }
}

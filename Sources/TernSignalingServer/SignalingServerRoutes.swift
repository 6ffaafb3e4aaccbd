#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Hummingbird
import NIOCore
import TernSignaling

/// The server's plain HTTP routes beside the WebSocket at `/v1`: `GET /health` and `GET /metrics`.
enum SignalingServerRoutes {
    /// The body of `GET /health`.
    struct Health: Codable, Sendable {
        /// `ok` while the server serves.
        var status = "ok"
        /// Where the server keeps its state: `memory` (one node).
        var storage = "memory"
        var connections: Int
        var registrations: Int
        var calls: Int
        var uptimeSeconds: Double
    }

    static func router(switchboard: SignalingSwitchboard, counters: SignalingServerCounters,
                       metrics: SignalingServerMetrics) -> Router<BasicRequestContext> {
        let router = Router()
        let started = ContinuousClock.now
        router.get("/health") { _, _ -> Response in
            let g = switchboard.snapshot().gauges
            let uptime = ContinuousClock.now - started
            let health = Health(connections: switchboard.connectionCount, registrations: g.registered,
                                calls: g.callsRinging + g.callsAnswered,
                                uptimeSeconds: Double(uptime.components.seconds) + Double(uptime.components.attoseconds) / 1e18)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let body = (try? encoder.encode(health)) ?? Data()
            return Response(status: .ok, headers: [.contentType: "application/json"],
                            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
        }
        router.get("/metrics") { _, _ -> Response in
            let text = metrics.scrape(switchboard.snapshot(), server: counters)
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
        }
        return router
    }
}

// Signaling load measure (run by hand, release build; figures are not asserted anywhere).
//
//   signal-load [clients] [rounds]
//   SIGNAL_POSTGRES=postgres://… SIGNAL_NODES=3 signal-load [clients] [rounds]
//
// With SIGNAL_POSTGRES, SIGNAL_NODES servers (default 3) share that PostgreSQL (the shared
// log of TernSignalingPostgres), in this process as well; each caller and its callee are on two
// different nodes, so every invite and accept crosses nodes. Rows get the suffix _pg<N>.
//
// Starts a SignalingServer on 127.0.0.1 (ephemeral port) in this process, connects
// `clients` WebSocket clients (half callers, half callees), registers them all, then
// every caller runs `rounds` invite → accept round trips (then hangup) against its own
// callee, all callers at once. Prints registration time, round trips per second and
// latency percentiles of invite → accept; then both figures as JSON lines for Scripts/bench.
import BenchSupport
import Foundation
import Logging
import TernSignaling
import TernSignalingClient
import TernSignalingPostgres
import TernSignalingServer

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let clientCount = max(2, arguments.first ?? 200) / 2 * 2
let rounds = arguments.dropFirst().first ?? 50
let postgres = ProcessInfo.processInfo.environment["SIGNAL_POSTGRES"]
let nodeCount = postgres == nil ? 1 : max(2, Int(ProcessInfo.processInfo.environment["SIGNAL_NODES"] ?? "") ?? 3)
let suffix = postgres == nil ? "" : "_pg\(nodeCount)"

var started: [(SignalingServer, String)] = []
for _ in 0..<nodeCount {
    let log = try await postgres.asyncMap { try await SignalingPostgresLog.connect(url: $0, logger: Logger(label: "bench")) }
    let server = SignalingServer(host: "127.0.0.1", port: 0, postgres: log)
    started.append((server, "ws://127.0.0.1:\(try await server.start())/v1"))
}
let servers = started.map(\.0)
let urls = started.map(\.1)
print("nodes: \(nodeCount)" + (postgres == nil ? " (state in memory)" : " on PostgreSQL"))
/// Caller `pair` on node pair % N, its callee on the next node: with several nodes every call crosses.
@Sendable func url(of index: Int) -> String {
    let pair = index % (clientCount / 2)
    return urls[(pair + (index < clientCount / 2 ? 0 : 1)) % urls.count]
}
let clock = ContinuousClock()
let options = SignalingClientOptions(autoAcceptAssignedCalls: false, maxConcurrentCalls: nil)

let registerStart = clock.now
let clients = try await withThrowingTaskGroup(of: (Int, SignalingClient).self) { group in
    for index in 0..<clientCount {
        group.addTask {
            let client = try await SignalingClient.connect(url: url(of: index), options: options)
            try await client.register(user: "u\(index)", token: "")
            return (index, client)
        }
    }
    var all: [Int: SignalingClient] = [:]
    for try await (index, client) in group { all[index] = client }
    return (0..<clientCount).compactMap { all[$0] }
}
let registerTime = clock.now - registerStart
print("clients: \(clientCount) connected and registered in \(registerTime)")

// Callees: accept every invite.
let callees = Array(clients[(clientCount / 2)...])
let calleeTasks = callees.map { callee in
    Task {
        for await message in callee.messages {
            if case .invite(let invite) = message { try? await callee.send(.accept(callId: invite.callId)) }
        }
    }
}

let start = clock.now
let latencies = try await withThrowingTaskGroup(of: [Duration].self) { group in
    for pair in 0..<(clientCount / 2) {
        let caller = clients[pair]
        group.addTask {
            var samples: [Duration] = []
            samples.reserveCapacity(rounds)
            var iterator = caller.messages.makeAsyncIterator()
            for round in 0..<rounds {
                let callId = "p\(pair)-\(round)"
                let sent = clock.now
                try await caller.send(.invite(Invite(callId: callId, to: "u\(pair + clientCount / 2)")))
                while let message = await iterator.next() {
                    if case .accept(let id, _) = message, id == callId { break }
                }
                samples.append(clock.now - sent)
                try await caller.send(.hangup(callId: callId))
            }
            return samples
        }
    }
    var all: [Duration] = []
    for try await samples in group { all += samples }
    return all.sorted()
}
let elapsed = clock.now - start
func percentile(_ p: Double) -> Duration { latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))] }
let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
print("round trips: \(latencies.count) in \(elapsed) → \(Int(Double(latencies.count) / seconds)) invite→accept/s")
print("latency p50 \(percentile(0.50)), p90 \(percentile(0.90)), p99 \(percentile(0.99)), max \(latencies.last ?? .zero)")
func milliseconds(_ d: Duration) -> Double { Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15 }
Figure(name: "signal_invites_per_s\(suffix)", unit: "invite->accept/s", samples: [Double(latencies.count) / seconds]).emit()
Figure(name: "signal_invite_p99_ms\(suffix)", unit: "ms", samples: [milliseconds(percentile(0.99))]).emit()

for client in clients { await client.close() }
for task in calleeTasks { task.cancel() }
for server in servers { await server.shutdown() }

extension Optional {
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}

// Scale (issues #8 and #12): N data-channel-only peer-connection pairs on loopback in one process.
// Prints, never asserts:
//   scale_setup_ms_N<N>        per pair, createOffer → data channel open on both sides, while
//                              pairs connect 10 at a time (median and spread over all pairs)
//   rss_per_pc_MiB_N<N>        (RSS with every pair connected − RSS before) / (2 N)
//   idle_cpu_percent_N<N>      CPU time of the whole process over an idle window with every pair
//                              connected (consent checks, RTT probes, SCTP heartbeats, timers), in
//                              percent of one core
//
//   PeerScale N [IDLE_SECONDS]
import BenchSupport
import Foundation
import Synchronization
import TernPeer

guard CommandLine.arguments.count >= 2, let count = Int(CommandLine.arguments[1]), count > 0 else {
    fatalError("usage: PeerScale N [IDLE_SECONDS]")
}
let idleSeconds = CommandLine.arguments.count >= 3 ? Double(CommandLine.arguments[2]) ?? 10 : 10

/// Every connection holds a few descriptors (sockets, GLib wake-ups): lift the soft limit.
func raiseDescriptorLimit() {
    var limit = rlimit()
    guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
    limit.rlim_cur = limit.rlim_max
    _ = setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
}

/// A field of /proc/self/status, e.g. `VmRSS` (kB) or `Threads`.
func statusField(_ name: String) -> Double {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
        let digits = line.dropFirst(name.count + 1).filter { $0.isNumber }
        return Double(digits) ?? 0
    }
    return 0
}

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
}

/// The callee's end of the channel, once announced.
final class ChannelSlot: Sendable {
    let channel = Mutex<DataChannel?>(nil)
}

/// Two connected peer connections and what keeps them alive.
final class ConnectedPair: Sendable {
    let caller: PeerConnection
    let callee: PeerConnection
    let channel: DataChannel
    let remoteChannel: ChannelSlot
    let tasks: [Task<Void, Never>]

    init(caller: PeerConnection, callee: PeerConnection, channel: DataChannel, remoteChannel: ChannelSlot,
         tasks: [Task<Void, Never>]) {
        self.caller = caller
        self.callee = callee
        self.channel = channel
        self.remoteChannel = remoteChannel
        self.tasks = tasks
    }

    func close() {
        tasks.forEach { $0.cancel() }
        caller.close()
        callee.close()
    }
}

enum ScaleError: Error { case timedOut }

/// Connects one pair; returns it and the set-up time in ms (createOffer → open on both sides).
func connectPair() async throws -> (ConnectedPair, Double) {
    let caller = try PeerConnection(configuration: .loopback)
    let callee = try PeerConnection(configuration: .loopback)
    let remote = ChannelSlot()
    func forward(_ from: PeerConnection, _ to: PeerConnection, remote: ChannelSlot?) -> Task<Void, Never> {
        Task {
            for await event in from.events {
                switch event {
                case let .iceCandidate(candidate): try? await to.addICECandidate(candidate)
                case let .dataChannel(channel): remote?.channel.withLock { $0 = channel }
                default: break
                }
            }
        }
    }
    let tasks = [forward(caller, callee, remote: nil), forward(callee, caller, remote: remote)]
    let channel = try caller.createDataChannel("scale")
    let start = wallSeconds()
    let offer = try await caller.createOffer()
    try await caller.setLocalDescription(offer)
    try await callee.setRemoteDescription(offer)
    let answer = try await callee.createAnswer()
    try await callee.setLocalDescription(answer)
    try await caller.setRemoteDescription(answer)
    let deadline = start + 20
    while !(channel.readyState == .open && remote.channel.withLock({ $0?.readyState == .open })) {
        guard wallSeconds() < deadline else {
            FileHandle.standardError.write(Data("""
                PeerScale: pair not open after 60 s: caller ice \(caller.iceConnectionState) gathering \(caller.iceGatheringState) \
                connection \(caller.connectionState) channel \(channel.readyState); callee ice \(callee.iceConnectionState) \
                gathering \(callee.iceGatheringState) connection \(callee.connectionState) \
                channel \(remote.channel.withLock { $0?.readyState.rawValue ?? "none" })
                caller trace:
                \(caller.iceTrace.map { String(describing: $0) } ?? "none")
                callee trace:
                \(callee.iceTrace.map { String(describing: $0) } ?? "none")

                """.utf8))
            throw ScaleError.timedOut
        }
        try await Task.sleep(for: .milliseconds(1))
    }
    let setupMs = (wallSeconds() - start) * 1000
    return (ConnectedPair(caller: caller, callee: callee, channel: channel, remoteChannel: remote, tasks: tasks), setupMs)
}

raiseDescriptorLimit()
// Warm-up: one pair, so one-time costs (libraries, certificates' first use) are not counted.
let (warm, _) = try await connectPair()
warm.close()
try await Task.sleep(for: .milliseconds(500))

let rssBefore = statusField("VmRSS")
var pairs: [ConnectedPair] = []
var setupTimes: [Double] = []
let batch = 10
while pairs.count < count {
    let size = min(batch, count - pairs.count)
    let results = try await withThrowingTaskGroup(of: (ConnectedPair, Double).self) { group in
        for _ in 0..<size { group.addTask { try await connectPair() } }
        var out: [(ConnectedPair, Double)] = []
        for try await result in group { out.append(result) }
        return out
    }
    pairs += results.map(\.0)
    setupTimes += results.map(\.1)
}
try await Task.sleep(for: .seconds(5))  // let the last checks, handshakes and SACKs settle
let rssAfter = statusField("VmRSS")
let threads = statusField("Threads")

let cpuStart = cpuSeconds()
let idleStart = wallSeconds()
try await Task.sleep(for: .seconds(idleSeconds))
let idlePercent = (cpuSeconds() - cpuStart) / (wallSeconds() - idleStart) * 100
let stillOpen = pairs.filter { $0.channel.readyState == .open }.count

Figure(name: "scale_setup_ms_N\(count)", unit: "ms", samples: setupTimes).emit()
Figure(name: "rss_per_pc_MiB_N\(count)", unit: "MiB", samples: [(rssAfter - rssBefore) / 1024 / Double(2 * count)]).emit()
Figure(name: "idle_cpu_percent_N\(count)", unit: "%", samples: [idlePercent]).emit()
FileHandle.standardError.write(Data(
    "PeerScale: \(count) pairs, RSS \(Int(rssBefore / 1024)) → \(Int(rssAfter / 1024)) MiB, \(Int(threads)) threads, \(stillOpen)/\(count) channels open after idle\n".utf8))
for pair in pairs { pair.close() }

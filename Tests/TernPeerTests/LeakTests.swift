import Foundation
import Synchronization
import Testing
import TernPeer
import TernSCTP
import TernTestSupport

/// Sequential create/connect/close cycles must not leak: every `close()` releases the GLib
/// thread, sockets, timers and memory of its ICE agent and transport.
///
/// `make test` runs 200 cycles (100 warm-up + 100 measured); the 1,000 cycles of the issue run
/// with `TERN_LEAK_CYCLES=1000 swift test --filter LeakTests`.
@Suite("Peer connection leak check", .serialized)
struct LeakTests {
    static let warmUpCycles = 100
    static var cycles: Int {
        let requested = ProcessInfo.processInfo.environment["TERN_LEAK_CYCLES"].flatMap { Int($0) } ?? 200
        return max(requested, warmUpCycles + 1)
    }

    @Test("create/connect/exchange/close cycles: fds and threads return to the warm-up level, RSS stays bounded")
    func sequentialCyclesReturnToBaseline() async throws {
        let start = try #require(ProcessResources.current())
        let clock = ContinuousClock()
        let began = clock.now
        var warm: ProcessResources?
        for cycle in 1...Self.cycles {
            guard try await connectExchangeClose(cycle: cycle) else { return }
            if cycle == Self.warmUpCycles { warm = await ProcessResources.settled() }
        }
        let baseline = try #require(warm)
        let end = await ProcessResources.final(comparedWith: baseline)
        print("""
            leak check, \(Self.cycles) cycles in \(clock.now - began):
              before:                   \(start)
              after \(Self.warmUpCycles) warm-up cycles: \(baseline)
              after all \(Self.cycles) cycles:  \(end)
            """)
        #expect(end.fileDescriptors <= baseline.fileDescriptors + ProcessResources.fileDescriptorSlack, "\(baseline) → \(end)")
        #expect(end.threads <= baseline.threads + ProcessResources.threadSlack, "\(baseline) → \(end)")
        // Bounded, not zero: the allocator keeps freed pages and GLib/OpenSSL caches grow a
        // little. Measured alone: +0.1 MiB over 100 cycles, +1.7 MiB over 900. The bound is wide
        // because under `make test` other suites run in this process at the same time and grow
        // RSS too (RSS rarely shrinks). A leaked ICE agent shows first in fds and threads
        // (each holds a socket and a GLib thread); this catches leaks of memory alone, from
        // ~0.5 MiB per cycle over 100 measured cycles and ~60 KiB per cycle over 900.
        #expect(end.residentGrowth(since: baseline, isBelowKiB: 50 * 1024), "\(baseline) → \(end)")
    }

    /// One cycle: two peers, a channel, one message, both closed. False (with an issue recorded)
    /// when the cycle did not complete.
    private func connectExchangeClose(cycle: Int) async throws -> Bool {
        let pair = try PeerPair()
        defer { pair.close() }
        let calleeChannel = Mutex<DataChannel?>(nil)
        let tasks = pair.startTrickle(onCallee: { event in
            if case let .dataChannel(channel) = event { calleeChannel.withLock { $0 = channel } }
        })
        defer { tasks.forEach { $0.cancel() } }
        let channel = try pair.caller.createDataChannel("cycle")
        try await pair.negotiate()
        guard await eventually({ channel.readyState == .open && calleeChannel.withLock { $0 }?.readyState == .open }),
              let remote = calleeChannel.withLock({ $0 }) else {
            Issue.record("cycle \(cycle) did not open its channel: \(pair.diagnosis)")
            return false
        }
        let log = MessageLog(remote)
        defer { log.stop() }
        try channel.send("cycle \(cycle)")
        guard await eventually({ log.received == [.string("cycle \(cycle)")] }) else {
            Issue.record("cycle \(cycle): the message did not arrive")
            return false
        }
        return true
    }
}

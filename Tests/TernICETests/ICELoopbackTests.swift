import Foundation
import Synchronization
import Testing
import TernSDP
import TernCore
@testable import TernICE

@Suite(.serialized) struct ICELoopbackTests {
    @Test func agentOnItsOwnLoopGathersOneHostCandidateOn127001() async throws {
        let transport = try ICETransport(configuration: .loopback, role: .controlling)
        let credentials = transport.localCredentials
        #expect(credentials.ufrag.count >= 4 && credentials.pwd.count >= 22)
        try transport.gather()
        var candidates: [ICECandidate] = []
        for await event in transport.events {
            if case let .candidate(c) = event { candidates.append(c) }
            if case .gatheringComplete = event { break }
        }
        #expect(candidates.count == 1)
        #expect(candidates.first?.candidateType == .host)
        #expect(candidates.first?.address == "127.0.0.1")
        #expect(candidates.first?.transportProtocol == .udp)
        #expect(transport.gatheringState == .complete)
        transport.close()
        #expect(transport.transportState == .closed)
    }

    @Test func aBatchLeavesInOneCallInOrderAndAnUnsendableDatagramCostsOnlyItself() async throws {
        let a = try ICEPeer(.controlling), b = try ICEPeer(.controlled)
        let tasks = try wire(a, b)
        #expect(await eventually { a.transport.selectedPair != nil && b.transport.selectedPair != nil })
        let batch: [[UInt8]] = (0..<40).map { i in i == 7 ? [] : [0xC, UInt8(i)] + Array(repeating: UInt8(i), count: 1_100) }
        #expect(try a.transport.send(batch: batch[...]) == 39, "the empty datagram is skipped, the rest taken")
        #expect(await eventually { b.received.withLock { $0.count } == 39 })
        #expect(b.received.withLock { $0.map { Int($0[1]) } } == (0..<40).filter { $0 != 7 })
        // One datagram too large costs only itself; alone, it is refused as `send` refuses it.
        let tooLarge = [UInt8](repeating: 0, count: a.transport.maximumDatagramSize + 1)
        #expect(try a.transport.send(batch: [tooLarge, [0xD, 1]][...]) == 1)
        #expect(await eventually { b.received.withLock { $0.last } == [0xD, 1] })
        #expect(throws: DatagramTransportError.tooLarge(size: tooLarge.count, limit: a.transport.maximumDatagramSize)) {
            _ = try a.transport.send(batch: [tooLarge][...])
        }
        a.transport.close(); b.transport.close()
        #expect(throws: DatagramTransportError.closed) { _ = try a.transport.send(batch: batch[0..<2]) }
        for t in tasks { await t.value }
    }

    @Test func twoAgentsConnectOnLoopbackAndExchangeDatagramsBothWays() async throws {
        let a = try ICEPeer(.controlling), b = try ICEPeer(.controlled)
        let tasks = try wire(a, b)
        #expect(await eventually { a.transport.selectedPair != nil && b.transport.selectedPair != nil })
        #expect(await eventually { [.connected, .completed].contains(a.transport.transportState) })
        #expect(await eventually { [.connected, .completed].contains(b.transport.transportState) })
        for i in 0..<20 {
            try a.transport.send([0xA, UInt8(i)] + Array(repeating: 1, count: 1000))
            try b.transport.send([0xB, UInt8(i)])
        }
        #expect(await eventually { a.received.withLock { $0.count } == 20 && b.received.withLock { $0.count } == 20 })
        #expect(b.received.withLock { $0.map { $0[1] } } == Array(0..<20))
        #expect(a.received.withLock { $0.allSatisfy { $0 == [0xB, $0[1]] } })
        let pair = try #require(a.transport.selectedPair)
        #expect(pair.local.candidateType == .host && pair.remote.address == "127.0.0.1" && pair.isDirect)
        // The event task may lag the transport under load: wait until it has seen the connection.
        #expect(await eventually { a.states.contains(.connected) || a.states.contains(.completed) })
        #expect(a.states.first == .checking)
        a.transport.close(); b.transport.close()
        for t in tasks { await t.value } // event streams finish after close
        #expect(a.states.last == .closed)
        #expect(throws: DatagramTransportError.closed) { try a.transport.send([1]) }
    }

    @Test func largestAllowedDatagramArrivesWhole() async throws {
        let a = try ICEPeer(.controlling), b = try ICEPeer(.controlled)
        let tasks = try wire(a, b)
        #expect(await eventually { a.transport.selectedPair != nil })
        let big = (0..<a.transport.maximumDatagramSize).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try a.transport.send(big)
        try a.transport.send([]) // ignored, not an error
        #expect(await eventually { b.received.withLock { $0.contains(big) } })
        a.transport.close(); b.transport.close()
        for t in tasks { await t.value }
    }

    @Test func iceTCPAddsTCPHostCandidatesAndStillConnects() async throws {
        var c = ICEConfiguration.loopback
        c.iceTCP = true
        let a = try ICEPeer(.controlling, c), b = try ICEPeer(.controlled, c)
        let tasks = try wire(a, b)
        #expect(await eventually { a.transport.gatheringState == .complete && a.transport.selectedPair != nil })
        let tcp = a.transport.localCandidates.filter { $0.transportProtocol == .tcp }
        #expect(Set(tcp.compactMap(\.tcpType)).isSuperset(of: ["active", "passive"]))
        try a.transport.send([1, 2, 3])
        #expect(await eventually { b.received.withLock { $0.contains([1, 2, 3]) } })
        a.transport.close(); b.transport.close()
        for t in tasks { await t.value }
    }

    @Test func sendBeforeConnectingFailsWithNotConnected() throws {
        let t = try ICETransport(configuration: .loopback, role: .controlling)
        #expect(throws: DatagramTransportError.notConnected) { try t.send([1, 2, 3]) }
        #expect(throws: DatagramTransportError.tooLarge(size: 70_000, limit: 65_000)) {
            try t.send([UInt8](repeating: 0, count: 70_000))
        }
    }

    @Test func closeFromInsideTheReceiveHandlerDoesNotDeadlock() async throws {
        let a = try ICEPeer(.controlling), b = try ICEPeer(.controlled)
        let closedInside = Atomic(false)
        let transportB = b.transport
        transportB.setReceiveHandler { _ in
            transportB.close() // on the GLib thread, inside libnice's receive callback
            closedInside.store(true, ordering: .relaxed)
        }
        let tasks = try wire(a, b)
        #expect(await eventually { a.transport.selectedPair != nil })
        #expect(await eventually {
            try? a.transport.send([42])
            return closedInside.load(ordering: .relaxed)
        })
        #expect(b.transport.transportState == .closed)
        a.transport.close()
        for t in tasks { await t.value }
    }

    @Test func closeFromManyThreadsWhileSendingIsSafe() async throws {
        let a = try ICEPeer(.controlling), b = try ICEPeer(.controlled)
        let tasks = try wire(a, b)
        #expect(await eventually { a.transport.selectedPair != nil })
        let sender = Task.detached { [transport = a.transport] in
            let deadline = ContinuousClock.now + .seconds(10)
            while ContinuousClock.now < deadline {
                do throws(DatagramTransportError) { try transport.send([1, 2, 3]) } catch { if error == .closed { return true } }
                // Yield: a busy loop would hold one of the two cooperative threads of this 2-core
                // machine and starve the tasks that close the transport.
                await Task.yield()
            }
            return false
        }
        try await Task.sleep(for: .milliseconds(20))
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 { group.addTask { [transport = a.transport] in transport.close() } }
        }
        #expect(await sender.value)
        b.transport.close()
        for t in tasks { await t.value }
    }

    @Test func droppingATransportWithoutClosingReleasesIt() async throws {
        weak var weakTransport: ICETransport?
        do {
            let t = try ICETransport(configuration: .loopback, role: .controlled)
            try t.gather()
            weakTransport = t
            #expect(await eventually { t.gatheringState == .complete })
        }
        #expect(weakTransport == nil) // the C side holds only a weak reference
    }

    @Test func traceRecordsTheTimelineAndEncodesAsJSON() async throws {
        let a = try ICEPeer(.controlling), b = try ICEPeer(.controlled)
        let tasks = try wire(a, b)
        // A pair learned from b's checks can be selected before b's candidate was forwarded.
        #expect(await eventually {
            a.transport.selectedPair != nil
                && a.transport.trace.entries.contains { "\($0.event)".hasPrefix("remoteCandidateAdded") }
        })
        let trace = a.transport.trace
        let kinds = trace.entries.map { "\($0.event)" }
        #expect(kinds.contains { $0.hasPrefix("gatheringStarted") })
        #expect(kinds.contains { $0.hasPrefix("localCandidate") })
        #expect(kinds.contains { $0.hasPrefix("remoteCandidateAdded") })
        #expect(kinds.contains { $0.hasPrefix("selectedPair") })
        #expect(zip(trace.entries, trace.entries.dropFirst()).allSatisfy { $0.time <= $1.time })
        let json = try JSONEncoder().encode(trace)
        let decoded = try JSONDecoder().decode(ICETrace.self, from: json)
        #expect(decoded.entries == trace.entries)
        #expect(trace.description.contains("selected pair host udp 127.0.0.1"))
        a.transport.close(); b.transport.close()
        for t in tasks { await t.value }
    }
}

@Suite struct ICELifecycleTests {
    @Test func agentIsClosedAndItsLoopReleasedAfterTheTransportGoes() async throws {
        weak var weakLoop: GLibEventLoop?
        do {
            let loop = GLibEventLoop(name: "test.lifecycle")
            weakLoop = loop
            let t = try ICETransport(configuration: .loopback, role: .controlling, loop: loop)
            try t.gather()
            #expect(await eventually { t.gatheringState == .complete })
            t.close()
        }
        // nice_agent_close_async completes on the loop, unrefs the agent, then lets the loop go.
        #expect(await eventually { weakLoop == nil })
    }

    @Test func severalTransportsShareOneLoop() async throws {
        let loop = GLibEventLoop(name: "test.shared")
        var c = ICEConfiguration.loopback
        c.stunPacing = .milliseconds(5)
        let a = try ICEPeer(.controlling), b = try ICEPeer(.controlled)
        let shared = try ICETransport(configuration: c, role: .controlling, loop: loop)
        let shared2 = try ICETransport(configuration: c, role: .controlled, loop: loop)
        try shared.gather(); try shared2.gather()
        let tasks = try wire(a, b)
        #expect(await eventually { shared.gatheringState == .complete && shared2.gatheringState == .complete })
        #expect(await eventually { a.transport.selectedPair != nil })
        shared.close(); shared2.close(); a.transport.close(); b.transport.close()
        for t in tasks { await t.value }
    }

    @Test func theRouteMTUIsReadForTheSelectedPathsFirstHop() {
        // Loopback's MTU is 65,536 here; a UDP pair's datagram is that minus IPv4 + UDP headers.
        let mtu = ICETransport.routeMTU(to: "127.0.0.1")
        #expect((mtu ?? 0) >= 1_500)
        #expect(ICETransport.routeMTU(to: "not an address") == nil)
    }

    @Test func aPeerThatNominatesAggressivelyIsAccepted() async throws {
        // The controlling peer puts USE-CANDIDATE on its first check (RFC 5245 aggressive
        // nomination); the Tern transport, controlled, takes that pair and carries data.
        var aggressive = ICEConfiguration.loopback
        aggressive.nomination = .aggressive
        let peer = try ICEPeer(.controlling, aggressive), tern = try ICEPeer(.controlled)
        let tasks = try wire(peer, tern)
        #expect(await eventually { tern.transport.selectedPair != nil && [.connected, .completed].contains(tern.transport.transportState) })
        try tern.transport.send([7, 7])
        #expect(await eventually { peer.received.withLock { $0.contains([7, 7]) } })
        peer.transport.close(); tern.transport.close()
        for t in tasks { await t.value }
    }
}

/// Where host candidates come from: interfaces by name, and the port range.
@Suite struct ICELocalAddressTests {
    private func gatheredCandidates(_ configuration: ICEConfiguration) async throws -> [ICECandidate] {
        let transport = try ICETransport(configuration: configuration, role: .controlling)
        defer { transport.close() }
        try transport.gather()
        var candidates: [ICECandidate] = []
        for await event in transport.events {
            if case let .candidate(c) = event { candidates.append(c) }
            if case .gatheringComplete = event { break }
        }
        return candidates
    }

    @Test func anAllowedInterfaceByNameGathersOnItsAddressOnly() async throws {
        var configuration = ICEConfiguration()
        configuration.allowedInterfaces = ["lo"]
        let candidates = try await gatheredCandidates(configuration)
        #expect(candidates.map(\.address) == ["127.0.0.1"])
    }

    @Test func anUnknownInterfaceIsAConfigurationErrorNamingIt() {
        var configuration = ICEConfiguration()
        configuration.allowedInterfaces = ["tern-no-such-if0"]
        #expect {
            _ = try ICETransport(configuration: configuration, role: .controlling)
        } throws: { error in
            "\(error)".contains("tern-no-such-if0")
        }
    }

    @Test func hostCandidatesTakeTheirPortFromThePortRange() async throws {
        var configuration = ICEConfiguration.loopback
        configuration.portRange = 47_311...47_319
        let candidates = try await gatheredCandidates(configuration)
        #expect(!candidates.isEmpty)
        #expect(candidates.allSatisfy { (47_311...47_319).contains($0.port) }, "\(candidates.map(\.port))")
    }
}

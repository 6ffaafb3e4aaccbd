import Foundation
import Synchronization
import Testing
import TernSDP
import TernCore
@testable import TernICE

@Suite struct MDNSMessageTests {
    @Test func queryAndResponseRoundTrip() throws {
        let name = "0b7e5d1c-1111-2222-3333-444455556666.local"
        let query = try #require(MDNSMessage.query(name: name, id: 0x1234))
        let q = try #require(MDNSMessage.question(in: query))
        #expect(q.id == 0x1234 && q.name == name)
        let response = try #require(MDNSMessage.response(id: q.id, name: name, ipv4: [192, 168, 1, 20]))
        #expect(MDNSMessage.address(for: name, in: response) == "192.168.1.20")
        #expect(MDNSMessage.address(for: "OTHER.local", in: response) == nil)
        #expect(MDNSMessage.address(for: name, in: query) == nil) // a query is not an answer
    }

    @Test func followsCompressionPointersAndRejectsLoops() {
        // Answer whose owner name is a pointer to the question name at offset 12.
        let header: [UInt8] = [0, 0, 0x84, 0, 0, 1, 0, 1, 0, 0, 0, 0]
        let qname: [UInt8] = [3] + Array("abc".utf8) + [5] + Array("local".utf8) + [0]
        let question = qname + [0, 1, 0, 1]
        let answer: [UInt8] = [0xC0, 12, 0, 1, 0, 1, 0, 0, 0, 120, 0, 4, 10, 0, 0, 7]
        #expect(MDNSMessage.address(for: "abc.local", in: header + question + answer) == "10.0.0.7")
        // A pointer to itself must not hang or crash.
        let loop: [UInt8] = [0, 0, 0x84, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0xC0, 12, 0, 1, 0, 1, 0, 0, 0, 1, 0, 4, 1, 2, 3, 4]
        #expect(MDNSMessage.address(for: "abc.local", in: loop) == nil)
    }

    @Test(arguments: [[UInt8](), [0, 1, 0x84], [0, 0, 0x84, 0, 0, 0, 0, 9, 0, 0, 0, 0, 3, 97]])
    func truncatedMessagesGiveNil(bytes: [UInt8]) {
        #expect(MDNSMessage.address(for: "a.local", in: bytes) == nil)
    }
}

@Suite struct MDNSNameAndAddressTests {
    @Test(arguments: [("4f1f6c0e-5e3a-4f0b-9c55-6d1b3e0d9a11.local", true), ("4F1F6C0E-5E3A-4F0B-9C55-6D1B3E0D9A11.LOCAL", true),
                      ("office-printer.local", false), ("4f1f6c0e-5e3a-4f0b-9c55-6d1b3e0d9a1.local", false),
                      ("4f1f6c0e_5e3a-4f0b-9c55-6d1b3e0d9a11.local", false), ("4f1f6c0e-5e3a-4f0b-9c55-6d1b3e0d9a1g.local", false),
                      ("x4f1f6c0e-5e3a-4f0b-9c55-6d1b3e0d9a11.local", false)])
    func onlyUUIDNamesAreCandidateNames(name: String, accepted: Bool) throws {
        let candidate = try ICECandidate(agentLine: "candidate:1 1 udp 2122260223 \(name) 52000 typ host")
        #expect(candidate.isMDNS)
        #expect(candidate.hasMDNSCandidateName == accepted)
    }

    @Test(arguments: [("192.168.1.20", IPAddressClass.unicast), ("169.254.3.4", .unicast), ("127.0.0.1", .loopback),
                      ("127.9.9.9", .loopback), ("::1", .loopback), ("224.0.0.251", .multicast), ("239.1.2.3", .multicast),
                      ("ff02::fb", .multicast), ("0.0.0.0", .unspecified), ("::", .unspecified),
                      ("255.255.255.255", .broadcast), ("::ffff:127.0.0.1", .loopback), ("fe80::1", .unicast),
                      ("2001:db8::1", .unicast), ("host.local", .notAnAddress)])
    func addressClasses(text: String, expected: IPAddressClass) {
        #expect(IPAddressClass(text) == expected)
    }
}

@Suite(.serialized) struct ICEMDNSTests {
    @Test func oneShotQueryGetsTheResponderAnswer() async throws {
        let responder = try FakeMDNSResponder(name: "peer-host.local", address: [127, 0, 0, 1])
        defer { responder.stop() }
        let outcome = await resolve("peer-host.local", via: responder.port)
        #expect(outcome == .resolved("127.0.0.1"))
    }

    @Test func anAnswerFromAnotherPortIsIgnored() async throws {
        // RFC 6762 §6: responses not from the mDNS port are silently ignored.
        let spoofer = try FakeMDNSResponder(name: nil, address: [10, 0, 0, 66], answersFromAnotherPort: true)
        defer { spoofer.stop() }
        let outcome = await resolve("peer-host.local", via: spoofer.port, timeout: .milliseconds(300))
        #expect(spoofer.queries == 1)
        #expect(outcome == .failed("no mDNS answer for 'peer-host.local' within 0.3 seconds"))
    }

    @Test func hundredsOfNamesResolveSideBySide() async throws {
        // The responder answers nothing until all 200 questions are in: names resolved one after
        // another would each time out waiting for it.
        let responder = try FakeMDNSResponder(name: nil, address: [192, 168, 7, 7], answersOnceAsked: 200)
        defer { responder.stop() }
        let outcomes = await withTaskGroup(of: MDNSResolver.Outcome.self) { group in
            for _ in 0..<200 {
                group.addTask { await resolve(UUID().uuidString.lowercased() + ".local", via: responder.port, timeout: .seconds(10)) }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.count == 200 && outcomes.allSatisfy { $0 == .resolved("192.168.7.7") })
        #expect(responder.queries == 200)
    }

    @Test func remoteMDNSHostCandidateIsResolvedAndConnects() async throws {
        let name = "4f1f6c0e-5e3a-4f0b-9c55-6d1b3e0d9a11.local"
        let responder = try FakeMDNSResponder(name: name, address: [127, 0, 0, 1])
        defer { responder.stop() }
        let a = try ICEPeer(.controlling), b = try ICEPeer(.controlled)
        a.transport.mdnsDestinationBox.withLock { $0 = .init(address: "127.0.0.1", port: responder.port) }
        a.forwarding.store(false, ordering: .relaxed)
        b.forwarding.store(false, ordering: .relaxed)
        let tasks = try wire(a, b)
        #expect(await eventually { b.transport.gatheringState == .complete && a.transport.gatheringState == .complete })
        // b hides its address behind an mDNS name, as browsers do.
        for var c in b.transport.localCandidates {
            c.address = name
            try a.transport.addRemoteCandidate(c.candidateString)
        }
        try a.transport.addRemoteEndOfCandidates()
        for c in a.transport.localCandidates { try b.transport.addRemoteCandidate(c.candidateString) }
        try b.transport.addRemoteEndOfCandidates()
        #expect(await eventually { a.transport.selectedPair != nil })
        #expect(responder.queries >= 1)
        // The name resolves asynchronously; a pair learned from b's checks can be selected first.
        #expect(await eventually {
            a.transport.trace.entries.contains { if case let .remoteCandidateAdded(c) = $0.event { c.address == "127.0.0.1" } else { false } }
        })
        a.transport.close(); b.transport.close()
        for t in tasks { await t.value }
    }

    @Test func aPeerSendingHundredsOfMDNSNamesGetsAtMostTheLimitResolved() async throws {
        var config = ICEConfiguration.loopback
        config.mdnsResolutionTimeout = .milliseconds(200)
        config.maximumMDNSCandidates = 5
        let t = try ICETransport(configuration: config, role: .controlled)
        let silent = try FakeMDNSResponder(name: "someone-else.local", address: [1, 2, 3, 4])
        defer { silent.stop() }
        t.mdnsDestinationBox.withLock { $0 = .init(address: "127.0.0.1", port: silent.port) }
        let reasons = Mutex<[String]>([])
        let watcher = Task {
            for await e in t.events { if case let .remoteCandidateDropped(_, reason) = e { reasons.withLock { $0.append(reason) } } }
        }
        for i in 0..<200 {
            let name = UUID().uuidString.lowercased() + ".local"
            try t.addRemoteCandidate("candidate:\(i) 1 udp 2122260223 \(name) 52000 typ host")
        }
        // 195 refused at once, the 5 resolved ones dropped when their queries time out.
        #expect(await eventually { reasons.withLock { $0.count } == 200 })
        #expect(reasons.withLock { $0.filter { $0.contains("more than 5 mDNS candidates") }.count } == 195)
        #expect(reasons.withLock { $0.filter { $0.contains("no mDNS answer") }.count } == 5, "only the first 5 were queried")
        t.close()
        await watcher.value
    }

    @Test func unansweredMDNSNameIsDroppedWithAReason() async throws {
        var config = ICEConfiguration.loopback
        config.mdnsResolutionTimeout = .milliseconds(200)
        let t = try ICETransport(configuration: config, role: .controlled)
        // Nobody answers on this port: the query times out.
        let silent = try FakeMDNSResponder(name: "someone-else.local", address: [1, 2, 3, 4])
        defer { silent.stop() }
        t.mdnsDestinationBox.withLock { $0 = .init(address: "127.0.0.1", port: silent.port) }
        let dropped = Mutex<String?>(nil)
        let watcher = Task {
            for await e in t.events { if case let .remoteCandidateDropped(_, reason) = e { dropped.withLock { $0 = reason } } }
        }
        try t.addRemoteCandidate("candidate:1 1 udp 2122260223 9b2d7a9e-6c1f-4a55-8d1e-2f3a4b5c6d7e.local 52000 typ host")
        #expect(await eventually { dropped.withLock { $0 } != nil })
        #expect(dropped.withLock { $0 }?.contains("no mDNS answer") == true)
        t.close()
        await watcher.value
    }

    @Test func aNameThatIsNotAUUIDIsDroppedWithoutAQuery() async throws {
        let t = try ICETransport(configuration: .loopback, role: .controlled)
        let responder = try FakeMDNSResponder(name: nil, address: [192, 168, 7, 7])
        defer { responder.stop() }
        t.mdnsDestinationBox.withLock { $0 = .init(address: "127.0.0.1", port: responder.port) }
        let reason = await droppedReason(t) {
            try t.addRemoteCandidate("candidate:1 1 udp 2122260223 office-printer.local 52000 typ host")
        }
        #expect(reason?.contains("not an mDNS candidate name") == true)
        #expect(responder.queries == 0)
        t.close()
    }

    @Test(arguments: [([UInt8]([127, 0, 0, 1]), "loopback address"), ([224, 0, 0, 1], "not a unicast address"),
                      ([0, 0, 0, 0], "not a unicast address"), ([255, 255, 255, 255], "not a unicast address")])
    func anAnswerNoPeerCanHaveIsRefused(address: [UInt8], expected: String) async throws {
        // This transport has not gathered, so it has no loopback candidate of its own.
        let t = try ICETransport(configuration: .loopback, role: .controlled)
        let responder = try FakeMDNSResponder(name: nil, address: address)
        defer { responder.stop() }
        t.mdnsDestinationBox.withLock { $0 = .init(address: "127.0.0.1", port: responder.port) }
        let reason = await droppedReason(t) {
            try t.addRemoteCandidate("candidate:1 1 udp 2122260223 \(UUID().uuidString).local 52000 typ host")
        }
        #expect(reason?.contains(expected) == true, "\(reason ?? "no drop")")
        #expect(responder.queries == 1)
        t.close()
    }
}

private func resolve(_ name: String, via port: UInt16, timeout: Duration = .seconds(2)) async -> MDNSResolver.Outcome {
    await withCheckedContinuation { done in
        MDNSResolver.shared.resolve(name, timeout: timeout, destination: .init(address: "127.0.0.1", port: port)) {
            done.resume(returning: $0)
        }
    }
}

/// The reason of the first `.remoteCandidateDropped` after `action`.
private func droppedReason(_ t: ICETransport, after action: () throws -> Void) async -> String? {
    let dropped = Mutex<String?>(nil)
    let watcher = Task {
        for await e in t.events { if case let .remoteCandidateDropped(_, reason) = e { dropped.withLock { $0 = $0 ?? reason } } }
    }
    defer { watcher.cancel() }
    do { try action() } catch { return "threw \(error)" }
    _ = await eventually { dropped.withLock { $0 } != nil }
    return dropped.withLock { $0 }
}

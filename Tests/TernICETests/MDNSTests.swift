import Synchronization
import Testing
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

@Suite(.serialized) struct IceMDNSTests {
    @Test func oneShotQueryGetsTheResponderAnswer() throws {
        let responder = try FakeMDNSResponder(name: "peer-host.local", address: [127, 0, 0, 1])
        defer { responder.stop() }
        let outcome = MDNSQuery.resolve("peer-host.local", timeout: .seconds(2),
                                        destination: .init(address: "127.0.0.1", port: responder.port))
        #expect(outcome == .resolved("127.0.0.1"))
    }

    @Test func remoteMDNSHostCandidateIsResolvedAndConnects() async throws {
        let name = "4f1f6c0e-5e3a-4f0b-9c55-6d1b3e0d9a11.local"
        let responder = try FakeMDNSResponder(name: name, address: [127, 0, 0, 1])
        defer { responder.stop() }
        let a = try IcePeer(.controlling), b = try IcePeer(.controlled)
        a.transport.mdnsDestinationBox.withLock { $0 = .init(address: "127.0.0.1", port: responder.port) }
        a.forwarding.store(false, ordering: .relaxed)
        b.forwarding.store(false, ordering: .relaxed)
        let tasks = try wire(a, b)
        #expect(await eventually { b.transport.gatheringState == .complete && a.transport.gatheringState == .complete })
        // b hides its address behind an mDNS name, as browsers do.
        for var c in b.transport.localCandidates {
            c.address = name
            try a.transport.addRemoteCandidate(c.sdp)
        }
        try a.transport.addRemoteEndOfCandidates()
        for c in a.transport.localCandidates { try b.transport.addRemoteCandidate(c.sdp) }
        try b.transport.addRemoteEndOfCandidates()
        #expect(await eventually { a.transport.selectedPair != nil })
        #expect(responder.queries >= 1)
        let added = a.transport.trace.entries.compactMap { if case let .remoteCandidateAdded(c) = $0.event { c } else { nil } }
        #expect(added.contains { $0.address == "127.0.0.1" })
        a.transport.close(); b.transport.close()
        for t in tasks { await t.value }
    }

    @Test func aPeerSendingHundredsOfMDNSNamesGetsAtMostTheLimitResolved() async throws {
        var config = IceConfiguration.loopback
        config.mdnsResolutionTimeout = .milliseconds(200)
        config.maximumMDNSCandidates = 5
        let t = try IceTransport(configuration: config, role: .controlled)
        let silent = try FakeMDNSResponder(name: "someone-else.local", address: [1, 2, 3, 4])
        defer { silent.stop() }
        t.mdnsDestinationBox.withLock { $0 = .init(address: "127.0.0.1", port: silent.port) }
        let reasons = Mutex<[String]>([])
        let watcher = Task {
            for await e in t.events { if case let .remoteCandidateDropped(_, reason) = e { reasons.withLock { $0.append(reason) } } }
        }
        for i in 0..<200 { try t.addRemoteCandidate("candidate:\(i) 1 udp 2122260223 host-\(i).local 52000 typ host") }
        // 195 refused at once, the 5 resolved ones dropped when their queries time out.
        #expect(await eventually { reasons.withLock { $0.count } == 200 })
        #expect(reasons.withLock { $0.filter { $0.contains("more than 5 mDNS candidates") }.count } == 195)
        #expect(reasons.withLock { $0.filter { $0.contains("no mDNS answer") }.count } == 5, "only the first 5 were queried")
        t.close()
        await watcher.value
    }

    @Test func unansweredMDNSNameIsDroppedWithAReason() async throws {
        var config = IceConfiguration.loopback
        config.mdnsResolutionTimeout = .milliseconds(200)
        let t = try IceTransport(configuration: config, role: .controlled)
        // Nobody answers on this port: the query times out.
        let silent = try FakeMDNSResponder(name: "someone-else.local", address: [1, 2, 3, 4])
        defer { silent.stop() }
        t.mdnsDestinationBox.withLock { $0 = .init(address: "127.0.0.1", port: silent.port) }
        let dropped = Mutex<String?>(nil)
        let watcher = Task {
            for await e in t.events { if case let .remoteCandidateDropped(_, reason) = e { dropped.withLock { $0 = reason } } }
        }
        try t.addRemoteCandidate("candidate:1 1 udp 2122260223 nobody-here.local 52000 typ host")
        #expect(await eventually { dropped.withLock { $0 } != nil })
        #expect(dropped.withLock { $0 }?.contains("no mDNS answer") == true)
        t.close()
        await watcher.value
    }
}

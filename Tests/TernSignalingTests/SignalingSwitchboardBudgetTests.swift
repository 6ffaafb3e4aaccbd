import Testing
import TernCore
import TernSignaling

/// A connection that does not read what others send it is closed (WebSocket 1008) once more than
/// `outboundBudget` bytes wait for it; one that reads is never closed, however much it gets.
@Suite struct SignalingSwitchboardBudgetTests {
    /// Registers alice and bob on `board`, alice calls bob and bob accepts; returns the streams.
    private static func callBetween(_ board: SignalingSwitchboard) -> (alice: SignalingConnectionID, aliceOut: AsyncStream<SignalingSwitchboard.Outgoing>,
                                                                       bob: SignalingConnectionID, bobOut: AsyncStream<SignalingSwitchboard.Outgoing>) {
        let (bob, bobOut) = board.open()
        let (alice, aliceOut) = board.open()
        board.receive(SignalingCodec.encode(.register(user: "bob", token: "dev")), from: bob)
        board.receive(SignalingCodec.encode(.register(user: "alice", token: "dev")), from: alice)
        board.receive(SignalingCodec.encode(.invite(Invite(callId: "c1", to: "bob"))), from: alice)
        board.receive(SignalingCodec.encode(.accept(callId: "c1")), from: bob)
        return (alice, aliceOut, bob, bobOut)
    }

    private static func offer(_ size: Int) -> String {
        SignalingCodec.encode(.description(callId: "c1", description: .init(type: .offer, sdp: "v=0\r\n" + String(repeating: "a", count: size))))
    }

    @Test func aConnectionThatDoesNotReadIsClosedOnceItsBudgetIsFullAndTheOthersAreTold() async {
        let board = SignalingSwitchboard(outboundBudget: 20_000)
        let (alice, aliceOut, _, bobOut) = Self.callBetween(board)
        for _ in 0..<10 { board.receive(Self.offer(5_000), from: alice) }   // ~50 KB for bob, who reads nothing
        #expect(board.slowConsumersClosed == 1)
        #expect(board.connectionCount == 1, "alice stays")
        var queuedText = 0
        var last: SignalingSwitchboard.Outgoing?
        for await item in bobOut {
            if case let .text(text) = item { queuedText += text.utf8.count }
            last = item
        }
        #expect(queuedText <= 20_000, "never more than the budget held for bob")
        if case .closeTooSlow? = last {} else { Issue.record("bob's stream ends with closeTooSlow, not \(String(describing: last))") }
        // Alice learns that the call is over, as when bob's socket drops.
        board.close(alice)
        var aliceTexts: [String] = []
        for await item in aliceOut { if case let .text(text) = item { aliceTexts.append(text) } }
        #expect(aliceTexts.contains { $0.contains("\"hangup\"") && $0.contains("c1") }, "\(aliceTexts)")
    }

    @Test func aConnectionThatReadsIsNeverClosedWhateverItReceivesInTotal() async {
        let board = SignalingSwitchboard(outboundBudget: 20_000)
        let (alice, _, bob, bobOut) = Self.callBetween(board)
        var iterator = bobOut.makeAsyncIterator()
        var received = 0
        for _ in 0..<40 {   // 200 KB in total, read and reported written as it comes
            board.receive(Self.offer(5_000), from: alice)
            while received < 1, let item = await iterator.next() {
                if case let .text(text) = item {
                    board.written(text.utf8.count, on: bob)
                    if text.contains("\"description\"") { received += 1 }
                }
            }
            received = 0
        }
        #expect(board.slowConsumersClosed == 0)
        #expect(board.connectionCount == 2)
    }
}

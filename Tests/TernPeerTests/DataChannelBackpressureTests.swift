import Synchronization
import Testing
import TernPeer

/// A peer sending faster than the application reads: received messages wait in
/// `DataChannel.events` only up to `dataChannelReceiveBacklog`; the rest waits in the SCTP
/// association, whose window then closes, so the sender stops. Nothing is lost.
@Suite struct DataChannelBackpressureTests {
    @Test func aReaderThatDoesNotReadHoldsTheSenderBackAndThenGetsEverythingInOrder() async throws {
        var configuration = PeerConfiguration.loopback
        configuration.dataChannelReceiveBacklog = 1024 * 1024
        configuration.sctp.receiveWindow = 2 * 1024 * 1024
        let pair = try PeerPair(configuration: configuration)
        let remote = Mutex<DataChannel?>(nil)
        let tasks = pair.startTrickle(onCallee: { event in
            if case let .dataChannel(channel) = event { remote.withLock { $0 = channel } }
        })
        let channel = try pair.caller.createDataChannel("bulk")
        try await pair.negotiate()
        #expect(await eventually { channel.readyState == .open }, "\(pair.diagnosis)")

        // 24 × 256 KiB = 6 MiB; the callee reads nothing yet.
        let size = 256 * 1024, count = 24
        for i in 0..<count { try channel.send([UInt8](repeating: UInt8(i), count: size)) }
        #expect(await eventually { (remote.withLock { $0 }?.counters.bytesReceived ?? 0) >= 1024 * 1024 })
        let receiver = try #require(remote.withLock { $0 })
        try await Task.sleep(for: .milliseconds(500))   // let whatever the windows allow arrive
        let handedOver = receiver.counters.bytesReceived
        #expect(handedOver <= 1024 * 1024 + size, "at most the backlog (+ one message) waits unread: \(handedOver)")
        #expect(channel.bufferedAmount > 0, "the sender is held back by the closed window")

        // Now read: everything comes, once and in order, and the sender's buffer drains.
        var next = 0
        for await event in receiver.events {
            guard case let .message(.binary(bytes)) = event else { continue }
            #expect(bytes.count == size && bytes.first == UInt8(next) && bytes.last == UInt8(next))
            next += 1
            if next == count { break }
        }
        #expect(next == count)
        #expect(await eventually { channel.bufferedAmount == 0 })
        pair.close()
        for task in tasks { await task.value }
    }
}

import Synchronization
import Testing
import TernSDP
@testable import TernICE

@Suite struct GLibEventLoopTests {
    @Test func syncRunsOnTheLoopThreadAndReturnsTheResult() {
        let loop = GLibEventLoop(name: "test.sync")
        #expect(!loop.isCurrentThread)
        let onLoop = loop.sync { loop.isCurrentThread }
        #expect(onLoop == true)
        #expect(loop.sync { 41 + 1 } == 42)
    }

    @Test func postedJobsRunInOrderAndNeverInline() {
        let loop = GLibEventLoop(name: "test.order")
        let log = Mutex<[Int]>([])
        let inner = loop.sync { () -> [Int] in
            // Posting from the loop thread must defer, not run inline.
            loop.post { log.withLock { $0.append(2) } }
            log.withLock { $0.append(1) }
            return log.withLock { $0 }
        }
        #expect(inner == [1])
        for i in 3...50 { loop.post { log.withLock { $0.append(i) } } }
        _ = loop.sync { () }
        #expect(log.withLock { $0 } == Array(1...50))
    }

    @Test func syncFromTheLoopThreadDoesNotDeadlock() {
        let loop = GLibEventLoop(name: "test.nested")
        let nested = loop.sync { loop.sync { 7 } }
        #expect(nested == 7)
    }

    @Test func stopDrainsEarlierWorkAndRejectsLaterWork() {
        let loop = GLibEventLoop(name: "test.stop")
        let ran = Atomic(0)
        for _ in 0..<10 { loop.post { ran.add(1, ordering: .relaxed) } }
        loop.stop()
        #expect(ran.load(ordering: .relaxed) == 10)
        #expect(loop.post { ran.add(1, ordering: .relaxed) } == false)
        #expect(loop.sync { 1 } == nil)
        loop.stop() // idempotent
    }

    @Test func stopFromTheLoopThreadReturnsAndTheThreadExits() {
        let loop = GLibEventLoop(name: "test.selfstop")
        _ = loop.sync { loop.stop() }
        loop.waitUntilExited()
        #expect(loop.sync { 1 } == nil)
    }
}

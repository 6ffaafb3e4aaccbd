import Synchronization
import Testing
import TernSDP
import TernCore
@testable import TernICE

/// Many short connections, torn down in every order we support, to shake out teardown races
/// (callbacks running while the transport closes on another thread or inside a callback).
@Suite(.serialized) struct ICEStressTests {
    @Test func fortyConnectionsOpenExchangeAndCloseInVaryingOrders() async throws {
        var random = SeededRandom(seed: 4)
        let released = WeakSet()
        for round in 0..<40 {
            let a = try ICEPeer(.controlling), b = try ICEPeer(.controlled)
            released.add(a.transport); released.add(b.transport)
            let mode = random.next() % 4
            if mode == 3 {
                let transportB = b.transport
                transportB.setReceiveHandler { _ in transportB.close() } // close inside the callback
            }
            let tasks = try wire(a, b)
            #expect(await eventually { a.transport.selectedPair != nil }, "round \(round)")
            for i in 0..<5 { try? a.transport.send([UInt8(i)]); try? b.transport.send([UInt8(i)]) }
            switch mode {
            case 0: a.transport.close(); b.transport.close()
            case 1: b.transport.close(); a.transport.close()
            case 2:
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { [t = a.transport] in t.close() }
                    group.addTask { [t = b.transport] in t.close() }
                }
            default:
                #expect(await eventually { b.transport.transportState == .closed }, "round \(round)")
                a.transport.close()
            }
            for t in tasks { await t.value }
            #expect(a.transport.transportState == .closed && b.transport.transportState == .closed)
        }
        // Nothing keeps a closed transport alive (no retain cycle through the C context).
        #expect(await eventually { released.aliveCount == 0 })
    }
}

/// Weak references to every transport a test made.
final class WeakSet: @unchecked Sendable {
    // Only touched from the test's own task.
    private final class Box { weak var value: ICETransport? ; init(_ v: ICETransport) { value = v } }
    private var boxes: [Box] = []
    func add(_ t: ICETransport) { boxes.append(Box(t)) }
    var aliveCount: Int { boxes.filter { $0.value != nil }.count }
}

import Synchronization
import Testing
import TernSDP
import TernCore
@testable import TernICE

/// The receive handler runs once per datagram on the loop thread. Stored as a bare closure in a
/// `Mutex`, every read (`withLock { $0 }`) wrapped it in two more reabstraction thunks, so the
/// stack of each call grew with the number of datagrams received (6,000 frames after 6 s of an
/// aiortc data-channel run, starving libnice's consent checks; issue #10).
@Suite struct ICEReceiveHandlerTests {
    /// The address of a local: the stack depth at this point of the call.
    @inline(never) static func stackAddress() -> UInt {
        var marker = 0
        return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
    }

    @Test("the stack a datagram's handler runs on does not grow with the number of datagrams received")
    func handlerCallDepthIsConstant() throws {
        let t = try ICETransport(configuration: .loopback, role: .controlled)
        defer { t.close() }
        let depths = Mutex<[Int]>([])
        let callerAddress = Mutex<UInt>(0)
        t.setReceiveHandler { _ in
            let used = Int(callerAddress.withLock { $0 }) - Int(Self.stackAddress())
            depths.withLock { $0.append(used) }
        }
        let datagram: [UInt8] = [0x17, 0xFE, 0xFD, 0, 1]  // DTLS application data, not an RTT probe
        for _ in 0..<2000 {
            callerAddress.withLock { $0 = Self.stackAddress() }
            datagram.withUnsafeBytes { t.niceReceive($0) }
        }
        let recorded = depths.withLock { $0 }
        #expect(recorded.count == 2000)
        // Before the fix the last call used ~128 KB more stack than the first (64 B per read).
        #expect(recorded.last == recorded.first, "stack per call: first \(recorded.first ?? -1) B, last \(recorded.last ?? -1) B")
    }
}

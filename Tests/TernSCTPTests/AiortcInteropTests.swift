import Foundation
import Testing
import TernCore
import TernSCTP
#if canImport(Glibc)
import Glibc
#endif

/// Live interop with aiortc 1.16.0 over UDP on localhost, opt-in: set `TERN_AIORTC_PYTHON` to a
/// Python that has `aiortc` installed (e.g. a venv's `bin/python`). The aiortc side
/// (Fixtures/capture/aiortc_interop_peer.py) echoes every message on channels we open, opens a
/// reliable channel and an unordered maxRetransmits=0 channel of its own; 10% loss each way.
@Suite struct AiortcInteropTests {
    static let python = ProcessInfo.processInfo.environment["TERN_AIORTC_PYTHON"]

    @Test(.enabled(if: python != nil, "set TERN_AIORTC_PYTHON to run the live aiortc interop test"))
    func dataChannelsInteroperateWithAiortcAtTenPercentLoss() throws {
        let python = try #require(Self.python)
        let script = try #require(Bundle.module.url(forResource: "aiortc_interop_peer", withExtension: "py",
                                                   subdirectory: "Fixtures/capture"))
        let localPort = UInt16(47_500 + Int(getpid() % 200)), remotePort = localPort + 1
        let peer = Process()
        peer.executableURL = URL(fileURLWithPath: python)
        peer.arguments = [script.path, String(remotePort), String(localPort)]
        peer.environment = ["LOSS": "0.1"]
        try peer.run()
        defer { if peer.isRunning { peer.terminate() } }

        let socket = try UDPSocket(localPort: localPort, remotePort: remotePort)
        let clock = SystemClock()
        var config = SCTPAssociationConfig()
        config.maxMessageSize = 1024 * 1024
        let endpoint = DataChannelEndpoint(role: .client, config: config)
        var rng = SeededRandom(seed: 5)
        var channel: UInt16?, lossy: UInt16?
        var sent: [DataChannelMessage] = [], echoed: [DataChannelMessage] = []
        var remoteLabels: [String] = [], lossyIn: [DataChannelMessage] = []
        var closed = false
        Thread.sleep(forTimeInterval: 1)  // let the Python side bind its socket
        endpoint.connect(now: clock.now())
        let deadline = clock.now() + .seconds(40)
        while clock.now() < deadline, !(closed && remoteLabels.count == 2 && lossyIn.count > 100) {
            let now = clock.now()
            while let p = endpoint.pollTransmit(now: now) {
                if !rng.chance(0.1) { socket.send(p) }  // 10% loss on our side too
            }
            while let e = endpoint.pollEvent() {
                switch e {
                case .connected:
                    channel = try endpoint.createDataChannel(label: "interop", options: .init(protocol: "echo"), now: now)
                    lossy = try endpoint.createDataChannel(label: "lossy-to-aiortc",
                                                           options: .init(ordered: false, maxRetransmits: 0), now: now)
                case let .channelOpened(info) where info.id == channel:
                    for i in 0..<100 {
                        let m: DataChannelMessage = i % 2 == 0 ? .string("msg \(i) ✓")
                            : .binary((0..<(i * 37 % 3000 + 1)).map { UInt8(truncatingIfNeeded: $0 &* i) })
                        sent.append(m)
                        try endpoint.send(m, channel: info.id, now: now)
                    }
                    sent.append(.binary((0..<100_000).map { UInt8(truncatingIfNeeded: $0 / 7) }))
                    sent.append(.string(""))
                    for m in sent.suffix(2) { try endpoint.send(m, channel: info.id, now: now) }
                case let .channelOpened(info) where info.id == lossy:
                    for i in 0..<300 { try endpoint.send(.binary(Array("lossy-\(i)".utf8)), channel: info.id, now: now) }
                case let .channelOpened(info):
                    remoteLabels.append(info.label)
                case let .message(cid, m):
                    if cid == channel {
                        echoed.append(m)
                        if echoed.count == sent.count { endpoint.close(channel: cid, now: now) }
                    } else if case .binary = m {
                        lossyIn.append(m)
                    }
                case let .channelClosed(cid, _) where cid == channel:
                    closed = true
                default:
                    break
                }
            }
            let wait = endpoint.nextTimeout.map { max(0, min(50, Int32(($0 - now).milliseconds))) } ?? 50
            if let packet = socket.receive(timeoutMilliseconds: wait) { endpoint.handle(packet: packet, now: clock.now()) }
            if let t = endpoint.nextTimeout, t <= clock.now() { endpoint.handleTimeout(now: clock.now()) }
        }
        #expect(echoed == sent, "every message echoed intact, in order")
        #expect(closed, "closing via stream reset completes with aiortc")
        #expect(remoteLabels.sorted() == ["from-aiortc", "lossy-from-aiortc"])
        #expect(!lossyIn.isEmpty && Set(lossyIn.map { "\($0)" }).count == lossyIn.count, "PR-SCTP: no duplicates")
    }
}

/// A connected UDP socket on 127.0.0.1 for the interop test.
private final class UDPSocket {
    private let fd: Int32

    init(localPort: UInt16, remotePort: UInt16) throws {
        fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EBADF) }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_port = localPort.bigEndian
        local.sin_addr.s_addr = inet_addr("127.0.0.1")
        var remote = local
        remote.sin_port = remotePort.bigEndian
        let size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) } }
        let linked = withUnsafePointer(to: &remote) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, size) } }
        guard bound == 0, linked == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
    }

    deinit { close(fd) }

    func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, 0) }
    }

    func receive(timeoutMilliseconds: Int32) -> [UInt8]? {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pfd, 1, timeoutMilliseconds) > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = recv(fd, &buffer, buffer.count, 0)
        return n > 0 ? Array(buffer[0..<n]) : nil
    }
}

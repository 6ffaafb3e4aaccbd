// In-process SCTP throughput: 64 MiB in 64 KiB messages between two associations over a
// SimulatedLink, release build. Prints MB/s of wall-clock time and per CPU-second (both ends
// and the link run on one thread). Environment: DELAY_MS (one-way delay, virtual time),
// LOSS (0...1); with either set, the virtual-time throughput is printed too. Nothing asserted.
// The last line is the wall-clock figure as JSON (`sctp_inprocess_MBps`) for Scripts/bench.
import BenchSupport
import TernCore
import Foundation
import TernSCTP
#if canImport(Glibc)
import Glibc
import TernTestSupport
#endif

func cpuSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func wallSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func run() {
    var ca = SCTPAssociationConfig(); ca.randomSeed = 1
    var cb = SCTPAssociationConfig(); cb.randomSeed = 2
    let a = SCTPAssociation(config: ca)
    let b = SCTPAssociation(config: cb)
    let delayMs = Int(ProcessInfo.processInfo.environment["DELAY_MS"] ?? "0") ?? 0
    let lossRate = Double(ProcessInfo.processInfo.environment["LOSS"] ?? "0") ?? 0
    var link = SimulatedLink(conditions: .init(lossRate: lossRate, delay: .milliseconds(delayMs)))
    var now = Instant.zero
    a.connect(now: now); b.connect(now: now)

    func pump(_ a: SCTPAssociation, _ b: SCTPAssociation, _ link: inout SimulatedLink, _ now: Instant) {
        while let p = a.pollTransmit(now: now) { link.send(from: .a, datagram: p, at: now) }
        while let p = b.pollTransmit(now: now) { link.send(from: .b, datagram: p, at: now) }
        for d in link.deliverDue(at: now) { (d.to == .a ? a : b).handle(packet: d.datagram, now: now) }
        if let t = a.nextTimeout, t <= now { a.handleTimeout(now: now) }
        if let t = b.nextTimeout, t <= now { b.handleTimeout(now: now) }
        // Sans-I/O contract: after every input, poll until nil before sleeping until the next timeout.
        while let p = a.pollTransmit(now: now) { link.send(from: .a, datagram: p, at: now) }
        while let p = b.pollTransmit(now: now) { link.send(from: .b, datagram: p, at: now) }
    }
    while a.state != .established || b.state != .established { pump(a, b, &link, now); now += .microseconds(10) }
    while a.pollEvent() != nil {}
    while b.pollEvent() != nil {}

    let total = 64 * 1024 * 1024, messageSize = 64 * 1024
    let message = [UInt8](repeating: 0xAB, count: messageSize)
    var sent = 0, receivedBytes = 0
    let start = wallSeconds()
    let virtualStart = now
    var lastTrace = now
    let cpuStart = cpuSeconds()
    while receivedBytes < total {
        while sent < total, a.totalQueuedBytes < 16 * 1024 * 1024 {
            do {
                try a.send(message, streamIdentifier: 0, payloadProtocolIdentifier: 53, now: now)
            } catch {
                fatalError("send failed: \(error)")
            }
            sent += messageSize
        }
        pump(a, b, &link, now)
        while let e = b.pollEvent() { if case let .message(m) = e { receivedBytes += m.payload.count } }
        if ProcessInfo.processInfo.environment["TRACE"] != nil, (now - lastTrace) > .milliseconds(500) {
            lastTrace = now
            print("t=\(now - virtualStart) got=\(receivedBytes) cwnd=\(a.congestionWindow) rtx=\(a.stats.retransmittedChunks) queued=\(a.totalQueuedBytes) next=\(String(describing: a.nextTimeout)) linkNext=\(String(describing: link.nextDeliveryTime)) rto=\(a.retransmissionTimeout)")
        }
        if delayMs > 0 || lossRate > 0 {
            if let next = [link.nextDeliveryTime, a.nextTimeout, b.nextTimeout].compactMap({ $0 }).min(), next > now { now = next }
        } else {
            now += .microseconds(10)
        }
    }
    let virtual = (now - virtualStart).seconds
    if delayMs > 0 || lossRate > 0 { print("virtual time \(String(format: "%.2f", virtual)) s: \(String(format: "%.1f", Double(receivedBytes) / virtual / 1e6)) MB/s at \(delayMs) ms one-way delay, loss \(lossRate)") }
    let elapsed = wallSeconds() - start
    let cpu = cpuSeconds() - cpuStart
    print("transferred \(receivedBytes / 1024 / 1024) MiB in \(String(format: "%.3f", elapsed)) s: \(String(format: "%.1f", Double(receivedBytes) / elapsed / 1e6)) MB/s wall, \(String(format: "%.1f", Double(receivedBytes) / cpu / 1e6)) MB/s per CPU-second (\(String(format: "%.3f", cpu)) s CPU, both ends on one thread); cwnd \(a.congestionWindow), retransmits \(a.stats.retransmittedChunks), packets \(a.stats.packetsSent)")
    if delayMs == 0, lossRate == 0 {
        Figure(name: "sctp_inprocess_MBps", unit: "MB/s", samples: [Double(receivedBytes) / elapsed / 1e6]).emit()
    }
}
run()

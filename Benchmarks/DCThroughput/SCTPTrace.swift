// Diagnostics for DCBENCH_TRACE=1 only: a packet tap that counts SCTP DATA chunks, first
// transmissions versus retransmissions, SACKs and their gap blocks, and a once-a-second
// progress line on stderr. Not used for the figures (the tap runs under the transport lock).
import Foundation
import Synchronization
import TernPeer
import TernSCTP

final class SCTPTrace: Sendable {
    struct Counts {
        var dataOut = 0, retransmitted = 0, dataIn = 0, duplicateIn = 0
        var sacksIn = 0, sacksWithGaps = 0, sacksOut = 0, packetsOut = 0, packetsIn = 0
        var highestOut: UInt32?
        var highestIn: UInt32?
        var lastWindow: UInt32 = 0
    }
    private let counts = Mutex(Counts())

    func observe(_ packet: TappedPacket) {
        guard packet.kind == .sctp, let parsed = try? SCTPPacket.parse(packet.bytes, verifyChecksum: false) else { return }
        counts.withLock { c in
            if packet.direction == .outbound { c.packetsOut += 1 } else { c.packetsIn += 1 }
            for chunk in parsed.chunks {
                switch (chunk, packet.direction) {
                case let (.data(data), .outbound):
                    c.dataOut += 1
                    if let highest = c.highestOut, Int32(bitPattern: data.tsn &- highest) <= 0 { c.retransmitted += 1 } else { c.highestOut = data.tsn }
                case let (.data(data), .inbound):
                    c.dataIn += 1
                    if let highest = c.highestIn, Int32(bitPattern: data.tsn &- highest) <= 0 { c.duplicateIn += 1 } else { c.highestIn = data.tsn }
                case let (.sack(sack), .inbound):
                    c.sacksIn += 1
                    if !sack.gapBlocks.isEmpty { c.sacksWithGaps += 1 }
                    c.lastWindow = sack.advertisedReceiverWindowCredit
                case (.sack, .outbound):
                    c.sacksOut += 1
                default: break
                }
            }
        }
    }

    var summary: String {
        counts.withLock { c in
            "sctp packets out \(c.packetsOut) in \(c.packetsIn); DATA out \(c.dataOut) (retransmitted \(c.retransmitted)), DATA in \(c.dataIn) (out of order/dup \(c.duplicateIn)); SACK in \(c.sacksIn) (with gaps \(c.sacksWithGaps), last a_rwnd \(c.lastWindow)), SACK out \(c.sacksOut)"
        }
    }

    /// A configuration whose packet tap feeds this trace.
    func install(into configuration: inout PeerConfiguration) {
        configuration.packetTap = { [self] packet in observe(packet) }
    }

    /// Prints `summary` (and `extra`) every second until the process ends.
    func startReporting(_ label: String, extra: @escaping @Sendable () -> String = { "" }) {
        let thread = Thread { [self] in
            while true {
                Thread.sleep(forTimeInterval: 1)
                FileHandle.standardError.write(Data("DCThroughput: [\(label)] \(summary) \(extra())\n".utf8))
            }
        }
        thread.start()
    }
}

import Foundation
import Synchronization
import TernPeer
import TernTrace

/// `--pcap FILE`: writes the decrypted RTP, RTCP and SCTP that one participant's transport sends
/// and receives, with the real 5-tuple of the selected ICE pair. RTP and RTCP go out as UDP
/// payloads (read them with `tshark -r FILE -d udp.port==PORT,rtp`); SCTP as native SCTP packets
/// between the same addresses, which tshark decodes down to the data-channel messages.
final class CallCapture: Sendable {
    private let writer: PcapWriter
    private let peer = Mutex<PeerConnection?>(nil)
    private let failures = Mutex(0)

    init(path: String) throws {
        writer = try PcapWriter(path: path)
    }

    /// The participant's peer connection, once created (its selected pair gives the addresses).
    func attach(_ connection: PeerConnection) { peer.withLock { $0 = connection } }

    /// The packet tap to put into the participant's `PeerConfiguration`.
    var tap: @Sendable (TappedPacket) -> Void {
        { [self] packet in self.write(packet) }
    }

    private func write(_ packet: TappedPacket) {
        guard let pair = peer.withLock({ $0 })?.selectedCandidatePair,
              let local = try? SocketAddress(host: pair.local.address, port: pair.local.portNumber),
              let remote = try? SocketAddress(host: pair.remote.address, port: pair.remote.portNumber) else { return }
        let (from, to) = packet.direction == .outbound ? (local, remote) : (remote, local)
        do {
            switch packet.kind {
            case .rtp, .rtcp:
                try writer.write(payload: packet.bytes, from: from, to: to, at: Date())
            case .sctp:
                try writer.writeSCTP(packet: packet.bytes, from: from.address, to: to.address, at: Date())
            }
        } catch {
            failures.withLock { $0 += 1 }
        }
    }

    /// Flushes and closes the file; returns how many packets it holds.
    func close() -> (packets: Int, failures: Int) {
        try? writer.close()
        return (writer.packetCount, failures.withLock { $0 })
    }
}

public import Foundation
import Synchronization

/// Writes decrypted call traffic (RTP, RTCP, SCTP payloads) to a classic pcap file
/// as UDP datagrams with their real 5-tuples, for `tshark -d udp.port==N,rtp`.
///
/// - Link type `LINKTYPE_RAW` (101): each record is a bare IPv4 or IPv6 packet, so
///   IPv4 and IPv6 traffic can share one file (see `PcapFormat`).
/// - Records are buffered in memory and written in chunks of `bufferSize` bytes;
///   `flush()` forces them out, `close()` flushes and closes. Call `close()` when
///   the call ends: `deinit` flushes too, but cannot report an error.
/// - RTP and RTCP (rtcp-mux) both decode with `tshark -r F -d udp.port==N,rtp`
///   (Wireshark hands RTCP packet types 200–206 to its RTCP dissector). SCTP
///   can go in UDP too (`-d udp.port==N,sctp`, but not on the RTP port at the
///   same time) or, better, as native SCTP with `writeSCTP`.
/// - Truncation: a payload longer than fits the 65,535-byte snapshot length
///   (65,507 bytes over IPv4, 65,487 over IPv6) is cut to fit; the record's
///   original length (`orig_len`) keeps the true IP packet length, while the
///   IP/UDP length fields and UDP checksum describe the stored bytes.
///
/// ```swift
/// let pcap = try PcapWriter(path: "call.pcap")
/// try pcap.write(payload: rtpPacket, from: local, to: remote, at: Date())
/// try pcap.close()
/// ```
///
/// Thread-safe: every call takes one `Mutex`, so any thread may write.
public final class PcapWriter: Sendable {
    /// The capture file's path.
    public let path: String
    private let bufferSize: Int
    private let state: Mutex<State>

    private struct State {
        var handle: FileHandle?
        var buffer: [UInt8] = []
        var packets = 0
        var truncated = 0
    }

    /// Creates (or truncates) the file at `path` and writes the pcap file header.
    /// - Parameter bufferSize: bytes kept in memory before a write to the file.
    /// - Throws: `PcapError.cannotOpen` when the file cannot be created.
    public init(path: String, bufferSize: Int = 64 * 1024) throws(PcapError) {
        // 0600: the capture holds decrypted media and data-channel messages.
        guard FileManager.default.createFile(atPath: path, contents: Data(PcapFormat.fileHeader()),
                                             attributes: [.posixPermissions: 0o600]) else {
            throw .cannotOpen(path: path, reason: "could not create the file (missing directory or no permission?)")
        }
        let handle: FileHandle
        do {
            handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try handle.seekToEnd()
        } catch {
            throw .cannotOpen(path: path, reason: "\(error)")
        }
        self.path = path
        self.bufferSize = max(bufferSize, 0)
        self.state = Mutex(State(handle: handle))
    }

    deinit {
        try? close()
    }

    /// Number of packets written so far.
    public var packetCount: Int { state.withLock { $0.packets } }

    /// Number of packets whose payload was truncated to the snapshot length.
    public var truncatedCount: Int { state.withLock { $0.truncated } }

    /// Appends one UDP datagram carrying `payload` from `source` to `destination`.
    /// - Throws: `PcapError.addressFamilyMismatch`, `.closed`, or `.writeFailed`.
    public func write(payload: [UInt8], from source: SocketAddress, to destination: SocketAddress,
                      at date: Date) throws(PcapError) {
        try write(payload: payload, from: source, to: destination, at: PcapTimestamp(date))
    }

    /// Appends one UDP datagram stamped with an explicit timestamp.
    /// - Throws: `PcapError.addressFamilyMismatch`, `.closed`, or `.writeFailed`.
    public func write(payload: [UInt8], from source: SocketAddress, to destination: SocketAddress,
                      at timestamp: PcapTimestamp) throws(PcapError) {
        let overhead = IPPacketBuilder.headerLength(for: source.address) + UDPPacketBuilder.headerLength
        let stored = payload.prefix(max(Int(PcapFormat.snapshotLength) - overhead, 0))
        let packet = try UDPPacketBuilder.packet(payload: stored, from: source, to: destination)
        try append(packet, originalLength: overhead + payload.count, truncated: stored.count < payload.count,
                   at: timestamp)
    }

    /// Appends one decrypted SCTP packet (RFC 9260 §3: common header with its own
    /// ports, then chunks) as a native IP packet of protocol 132 between `source`
    /// and `destination`.
    ///
    /// WebRTC carries RTP, RTCP and SCTP on one UDP 5-tuple, so one
    /// `-d udp.port==N,rtp` cannot decode all three; written this way, Wireshark
    /// dissects SCTP (and data channels by PPID) with no decode-as at all. Use
    /// `write(payload:…)` instead to keep SCTP inside UDP on the real ports.
    /// - Throws: `PcapError.addressFamilyMismatch`, `.closed`, or `.writeFailed`.
    public func writeSCTP(packet sctp: [UInt8], from source: IPAddress, to destination: IPAddress,
                          at date: Date) throws(PcapError) {
        try writeSCTP(packet: sctp, from: source, to: destination, at: PcapTimestamp(date))
    }

    /// Appends one decrypted SCTP packet stamped with an explicit timestamp (see above).
    /// - Throws: `PcapError.addressFamilyMismatch`, `.closed`, or `.writeFailed`.
    public func writeSCTP(packet sctp: [UInt8], from source: IPAddress, to destination: IPAddress,
                          at timestamp: PcapTimestamp) throws(PcapError) {
        let overhead = IPPacketBuilder.headerLength(for: source)
        let stored = sctp.prefix(max(Int(PcapFormat.snapshotLength) - overhead, 0))
        let packet = try IPPacketBuilder.packet(protocolNumber: IPPacketBuilder.sctpProtocol, payload: stored,
                                                from: source, to: destination)
        try append(packet, originalLength: overhead + sctp.count, truncated: stored.count < sctp.count,
                   at: timestamp)
    }

    private func append(_ packet: [UInt8], originalLength: Int, truncated: Bool,
                        at timestamp: PcapTimestamp) throws(PcapError) {
        try state.withLock { (state) throws(PcapError) in
            guard state.handle != nil else { throw .closed(path: path) }
            PcapFormat.appendRecord(packet, originalLength: originalLength, timestamp: timestamp, to: &state.buffer)
            state.packets += 1
            if truncated { state.truncated += 1 }
            if state.buffer.count >= bufferSize { try drain(&state) }
        }
    }

    /// Writes buffered records to the file.
    /// - Throws: `PcapError.closed` or `.writeFailed`.
    public func flush() throws(PcapError) {
        try state.withLock { (state) throws(PcapError) in
            guard state.handle != nil else { throw .closed(path: path) }
            try drain(&state)
        }
    }

    /// Flushes and closes the file. Closing twice is harmless.
    /// - Throws: `PcapError.writeFailed` when the final write or close fails.
    public func close() throws(PcapError) {
        try state.withLock { (state) throws(PcapError) in
            guard let handle = state.handle else { return }
            // The descriptor is closed even when the final write fails; the first error wins.
            var failure: PcapError?
            do throws(PcapError) { try drain(&state) } catch { failure = error }
            state.handle = nil
            state.buffer = []
            do { try handle.close() } catch { failure = failure ?? .writeFailed(path: path, reason: "\(error)") }
            if let failure { throw failure }
        }
    }

    private func drain(_ state: inout State) throws(PcapError) {
        guard let handle = state.handle, !state.buffer.isEmpty else { return }
        do {
            try handle.write(contentsOf: state.buffer)
        } catch {
            throw .writeFailed(path: path, reason: "\(error)")
        }
        state.buffer.removeAll(keepingCapacity: true)
    }
}

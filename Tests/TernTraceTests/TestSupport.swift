import Foundation

/// Shared helpers for the TernTrace tests.
enum TestSupport {
    /// A minimal valid RTP packet (RFC 3550 §5.1): V=2, no padding/extension/CSRC,
    /// marker 0, payload type 111 (Opus), then `payloadSize` bytes of 0xAB.
    static func rtpPacket(sequence: UInt16, timestamp: UInt32, ssrc: UInt32, payloadSize: Int = 20) -> [UInt8] {
        var bytes: [UInt8] = [0x80, 111]
        bytes += [UInt8(sequence >> 8), UInt8(sequence & 0xFF)]
        for shift in [24, 16, 8, 0] { bytes.append(UInt8(truncatingIfNeeded: timestamp >> UInt32(shift))) }
        for shift in [24, 16, 8, 0] { bytes.append(UInt8(truncatingIfNeeded: ssrc >> UInt32(shift))) }
        bytes += [UInt8](repeating: 0xAB, count: payloadSize)
        return bytes
    }

    /// An RTCP sender report with no report blocks (RFC 3550 §6.4.1): PT 200, length 6 words.
    static func rtcpSenderReport(ssrc: UInt32) -> [UInt8] {
        var bytes: [UInt8] = [0x80, 200, 0, 6]
        for shift in [24, 16, 8, 0] { bytes.append(UInt8(truncatingIfNeeded: ssrc >> UInt32(shift))) }
        return bytes + [UInt8](repeating: 0x11, count: 20)          // NTP, RTP ts, packet and octet counts
    }

    /// An SCTP packet (RFC 9260 §3) from port 5000 to 5000 with one DATA chunk
    /// (§3.3.1, B and E flags) carrying `message` with PPID 51 (WebRTC string, RFC 8831).
    /// The CRC32c field is left 0: Wireshark does not verify it by default.
    static func sctpDataPacket(tsn: UInt32, message: String) -> [UInt8] {
        let payload = Array(message.utf8)
        var bytes: [UInt8] = [0x13, 0x88, 0x13, 0x88, 0x0A, 0x0B, 0x0C, 0x0D, 0, 0, 0, 0]
        bytes += [0, 0x03, UInt8((16 + payload.count) >> 8), UInt8((16 + payload.count) & 0xFF)]
        for shift in [24, 16, 8, 0] { bytes.append(UInt8(truncatingIfNeeded: tsn >> UInt32(shift))) }
        bytes += [0, 1, 0, 0, 0, 0, 0, 51] + payload
        return bytes + [UInt8](repeating: 0, count: (4 - payload.count % 4) % 4)
    }

    /// A fresh path in the temporary directory with the given extension.
    static func temporaryPath(_ ext: String) -> String {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("terntrace-\(UUID().uuidString).\(ext)").path
    }

    /// The absolute path of `tool` on `PATH`, or nil.
    static func executable(_ tool: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Runs `executable` with `arguments`; returns (exit status, stdout, stderr).
    /// Stderr goes to a temporary file so neither pipe can fill up and block the child;
    /// the child is terminated if it runs longer than `timeout` seconds.
    static func run(_ executable: String, _ arguments: [String],
                    timeout: Double = 120) throws -> (status: Int32, out: String, err: String) {
        let errPath = temporaryPath("stderr")
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: errPath) }
        let errHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = errHandle
        try process.run()
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        defer { watchdog.cancel() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try? errHandle.close()
        let errText = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), errText)
    }
}

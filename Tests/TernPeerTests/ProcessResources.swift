import Foundation

/// What this process holds right now, read from Linux's /proc: open file descriptors, threads
/// and resident memory. For leak tests.
struct ProcessResources: CustomStringConvertible, Sendable {
    /// Entries in /proc/self/fd (sockets, eventfds, pipes, files; the count includes the one
    /// descriptor used to list the directory, the same in every reading).
    var fileDescriptors: Int
    /// `Threads:` in /proc/self/status.
    var threads: Int
    /// `VmRSS:` in /proc/self/status, in KiB.
    var residentKiB: Int

    /// Reads the current values; nil where /proc is unavailable (not Linux).
    static func current() -> ProcessResources? {
        guard let fds = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"),
              let handle = FileHandle(forReadingAtPath: "/proc/self/status") else { return nil }
        // Read to EOF: /proc files report size 0, so size-based readers get nothing.
        let status = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        try? handle.close()
        func field(_ name: String) -> Int? {
            status.split(separator: "\n").first { $0.hasPrefix(name + ":") }
                .flatMap { line in line.dropFirst(name.count + 1).split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) } }
        }
        guard let threads = field("Threads"), let rss = field("VmRSS") else { return nil }
        return ProcessResources(fileDescriptors: fds.count, threads: threads, residentKiB: rss)
    }

    var description: String {
        "fds \(fileDescriptors), threads \(threads), RSS \(String(format: "%.1f", Double(residentKiB) / 1024)) MiB"
    }
}

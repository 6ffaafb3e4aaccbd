import Foundation

/// What this process holds right now, read from Linux's /proc: open file descriptors, threads
/// and resident memory. For leak tests.
public struct ProcessResources: CustomStringConvertible, Sendable {
    /// Entries in /proc/self/fd (sockets, eventfds, pipes, files; the count includes the one
    /// descriptor used to list the directory, the same in every reading).
    public var fileDescriptors: Int
    /// `Threads:` in /proc/self/status.
    public var threads: Int
    /// `VmRSS:` in /proc/self/status, in KiB.
    public var residentKiB: Int

    public init(fileDescriptors: Int, threads: Int, residentKiB: Int) {
        self.fileDescriptors = fileDescriptors
        self.threads = threads
        self.residentKiB = residentKiB
    }

    /// Reads the current values; nil where /proc is unavailable (not Linux).
    public static func current() -> ProcessResources? {
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

    public var description: String {
        "fds \(fileDescriptors), threads \(threads), RSS \(String(format: "%.1f", Double(residentKiB) / 1024)) MiB"
    }
}

extension ProcessResources {
    /// The reading once the counts stop falling: closed ICE agents' GLib threads exit after
    /// libnice's asynchronous close, so the first reading after a teardown is still high. The
    /// reading after 20 consecutive polls (10 ms apart) with the same threads and fds, or after 30 s.
    public static func settled() async -> ProcessResources {
        var last = current()
        var stable = 0
        let deadline = ContinuousClock.now + .seconds(30)
        while stable < 20, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
            let now = current()
            if now?.threads == last?.threads, now?.fileDescriptors == last?.fileDescriptors { stable += 1 } else { stable = 0 }
            last = now
        }
        return last ?? ProcessResources(fileDescriptors: 0, threads: 0, residentKiB: 0)
    }
}

extension ProcessResources {
    /// The slack a leak check allows over its baseline: a few descriptors and threads that
    /// GLib, the cooperative pool or another suite may hold at the moment of reading.
    public static let fileDescriptorSlack = 4
    public static let threadSlack = 2

    /// The reading to compare with `baseline` at the end of a leak check: other suites share the
    /// process under `swift test`, so first wait (up to `timeout`) for what they hold to go, then
    /// take the settled reading.
    public static func final(comparedWith baseline: ProcessResources, timeout: Duration = .seconds(120)) async -> ProcessResources {
        let deadline = ContinuousClock.now + timeout
        func withinSlack(_ reading: ProcessResources?) -> Bool {
            guard let reading else { return false }
            return reading.fileDescriptors <= baseline.fileDescriptors + fileDescriptorSlack
                && reading.threads <= baseline.threads + threadSlack
        }
        var reading = await settled()
        // Another suite may open hundreds of sockets between two readings (the signaling
        // connection flood): a settled reading over the slack is taken again until the deadline.
        while !withinSlack(reading), ContinuousClock.now < deadline {
            while !withinSlack(current()), ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(50))
            }
            reading = await settled()
        }
        return reading
    }
}

extension ProcessResources {
    /// Whether resident memory measures what the code under test holds. Under a sanitizer
    /// (`make test-sanitize` sets TERN_SANITIZER) freed memory waits in AddressSanitizer's
    /// quarantine and every allocation carries redzones and shadow, so an RSS bound says nothing
    /// there; the sanitizer itself is the check.
    public static let residentMemoryIsMeaningful = ProcessInfo.processInfo.environment["TERN_SANITIZER"] == nil

    /// Whether resident memory grew by less than `boundKiB` since `earlier` (always true where
    /// `residentMemoryIsMeaningful` is false).
    public func residentGrowth(since earlier: ProcessResources, isBelowKiB boundKiB: Int) -> Bool {
        !Self.residentMemoryIsMeaningful || residentKiB - earlier.residentKiB < boundKiB
    }
}

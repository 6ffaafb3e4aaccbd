// Shared by the benchmark executables: repeated samples of one figure, printed as one JSON line
// that Scripts/bench collects (Benchmarks/assemble.py builds Docs/BENCHMARKS.md from them).
// Figures are printed, never asserted.
#if canImport(Glibc)
import Glibc
#endif

/// Repeated measurements of one figure.
public struct Figure {
    /// Row name in Docs/BENCHMARKS.md, e.g. `rtp_parse_write_Mpps`.
    public var name: String
    /// Unit of every sample, e.g. `us`, `Mpps`.
    public var unit: String
    /// One value per run.
    public var samples: [Double]
    /// What the figure is compared with (same run), if anything.
    public var peer: String?
    /// The peer's samples, one per run.
    public var peerSamples: [Double]

    /// Creates a figure from its samples.
    public init(name: String, unit: String, samples: [Double], peer: String? = nil, peerSamples: [Double] = []) {
        self.name = name
        self.unit = unit
        self.samples = samples
        self.peer = peer
        self.peerSamples = peerSamples
    }

    /// Prints the figure as one JSON line: name, unit, value (median), runs, min, max, samples and,
    /// with a peer, the peer's name and samples (the assembler computes the ratio).
    public func emit() {
        var fields = ["\"name\":\(quoted(name))", "\"unit\":\(quoted(unit))",
                      "\"value\":\(number(median(samples)))", "\"runs\":\(samples.count)",
                      "\"min\":\(number(samples.min() ?? 0))", "\"max\":\(number(samples.max() ?? 0))",
                      "\"samples\":[\(samples.map(number).joined(separator: ","))]"]
        if let peer {
            fields.append("\"peer\":\(quoted(peer))")
            fields.append("\"peerSamples\":[\(peerSamples.map(number).joined(separator: ","))]")
        }
        print("{\(fields.joined(separator: ","))}")
        fflush(nil)  // all streams: the line reaches a pipe before the next figure is measured
    }
}

/// The median of `values` (the mean of the middle two for an even count); 0 when empty.
public func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// Seconds of monotonic wall-clock time.
public func wallSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Seconds of CPU time used by the calling thread.
public func threadCPUSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Seconds of CPU time the whole process used so far: every thread, user and system (getrusage).
public func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// True when `BENCH_QUICK=1`: the executables then use fewer runs and iterations.
public var quickMode: Bool {
    guard let value = getenv("BENCH_QUICK") else { return false }
    return String(cString: value) == "1"
}

/// `full` normally, `quick` when `BENCH_QUICK=1`.
public func choose<T>(full: T, quick: T) -> T { quickMode ? quick : full }

private func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case _ where scalar.value < 0x20: out += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

private func number(_ value: Double) -> String {
    value.isFinite ? "\(value)" : "null"
}

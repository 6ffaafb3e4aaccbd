import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A throwaway PostgreSQL cluster for a test: `Scripts/postgres-up` (initdb into a temporary
/// directory, a free port), removed by `stop()`. Tests that need one are enabled only where
/// Debian's postgresql package is installed (`make test` installs it).
struct PostgresCluster {
    /// `postgres://postgres@127.0.0.1:PORT/postgres`.
    let url: String
    let directory: String

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The suites on a real cluster run when `TERN_POSTGRES_TESTS=1` (Scripts/system-tests sets it
    /// and runs them on their own, after the parallel Swift suite: 300 WebSocket clients, three
    /// nodes and a PostgreSQL server beside the timing-sensitive suites starved those on 2 cores)
    /// and Debian's postgresql is installed (`make test` installs it).
    static var enabled: Bool {
        ProcessInfo.processInfo.environment["TERN_POSTGRES_TESTS"] == "1" && available
    }

    static var available: Bool {
        (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql"))?
            .contains { FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/\($0)/bin/initdb") } ?? false
    }

    static func start() throws -> PostgresCluster {
        let (status, output, errors) = try run(repository.appendingPathComponent("Scripts/postgres-up").path, [])
        let url = output.trimmingCharacters(in: .whitespacesAndNewlines)
        // stderr: "postgres-up: cluster in DIR (…)"
        guard status == 0, url.hasPrefix("postgres://"), let range = errors.range(of: "cluster in ") else {
            throw ClusterError(output: output + errors)
        }
        let directory = errors[range.upperBound...].prefix { $0 != " " }
        return PostgresCluster(url: url, directory: String(directory))
    }

    func stop() {
        _ = try? Self.run(Self.repository.appendingPathComponent("Scripts/postgres-up").path, ["--down", directory])
    }

    /// One value from `psql -Atq` (for checking what the tables hold).
    func scalar(_ sql: String) throws -> String {
        try Self.run("/usr/bin/psql", ["-Atq", url, "-c", sql]).output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    struct ClusterError: Error, CustomStringConvertible {
        let output: String
        var description: String { "Scripts/postgres-up failed: \(output)" }
    }

    /// Runs `path` through `/bin/sh` with its output in files, waiting with `waitpid`: the cluster
    /// the script starts outlives it, and Foundation's `Process.waitUntilExit` was seen to wait
    /// forever here once that daemon existed.
    private static func run(_ path: String, _ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("tern-pg-\(UUID().uuidString)")
        let out = base.path + ".out", err = base.path + ".err"
        defer { try? FileManager.default.removeItem(atPath: out); try? FileManager.default.removeItem(atPath: err) }
        let quoted = ([path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let command = "\(quoted) >'\(out)' 2>'\(err)' </dev/null"
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = ["/bin/sh", "-c", command].map { (text: String) in strdup(text) } + [nil]
        defer { argv.forEach { free($0) } }
        guard posix_spawn(&pid, "/bin/sh", nil, nil, argv, environ) == 0 else { throw ClusterError(output: "cannot spawn \(path)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        let output = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        let errors = (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
        return ((status >> 8) & 0xFF, output, errors)
    }
}

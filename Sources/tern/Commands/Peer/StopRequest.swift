import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How many SIGINT/SIGTERM arrived. An atomic: the only state a signal handler may touch.
private let signalsReceived = Atomic<Int>(0)

/// SIGINT and SIGTERM as a request to end `tern peer` cleanly — hang up, print the summary,
/// exit — so that a rig can stop an answerer that has no `--duration`. A second signal exits at
/// once with status 130.
enum StopRequest {
    static func install() {
        for number in [SIGINT, SIGTERM] {
            signal(number) { _ in
                if signalsReceived.add(1, ordering: .relaxed).newValue > 1 { _exit(130) }
            }
        }
    }

    /// Whether a signal asked us to stop.
    static var requested: Bool { signalsReceived.load(ordering: .relaxed) > 0 }
}

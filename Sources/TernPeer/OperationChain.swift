import Synchronization

/// W3C's operations chain (webrtc-pc §4.4.1.2, "chain an operation"): `createOffer`,
/// `createAnswer`, `setLocalDescription`, `setRemoteDescription` and `addICECandidate` run one
/// at a time, each after the previous one completed, in the order they were called, whatever
/// task or thread calls them.
final class OperationChain: Sendable {
    /// The last operation enqueued; the next one waits for it.
    private let tail = Mutex<Task<Void, Never>?>(nil)

    /// Runs `operation` after every operation enqueued before it, and returns its result.
    func run<T: Sendable>(_ operation: @escaping @Sendable () throws(PeerConnectionError) -> T) async throws(PeerConnectionError) -> T {
        let task = tail.withLock { tail -> Task<Result<T, PeerConnectionError>, Never> in
            let previous = tail
            let task = Task<Result<T, PeerConnectionError>, Never> {
                await previous?.value
                do throws(PeerConnectionError) { return .success(try operation()) } catch { return .failure(error) }
            }
            tail = Task { _ = await task.value }
            return task
        }
        return try await task.value.get()
    }
}

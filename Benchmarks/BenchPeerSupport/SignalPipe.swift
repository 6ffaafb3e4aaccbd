// Signaling between the two processes of a two-process benchmark (DCThroughput, CallCPU): one
// JSON object per line over a pipe pair (the child's stdin and a private copy of its stdout).
// No signaling server is involved.
public import Foundation
import Synchronization
public import TernSDP
#if canImport(Glibc)
import Glibc
#endif

/// One signaling message. `type` is one of: ready, offer, answer, candidate, end-of-candidates,
/// open, done, bye.
public struct Signal: Codable, Sendable {
    public var type: String
    /// SDP of an offer or answer.
    public var sdp: String?
    /// A trickled candidate.
    public var candidate: ICECandidateInit?
    /// A CLOCK_MONOTONIC time in seconds (shared by all processes on one machine): when the
    /// child's channel opened (`open`) or its last byte arrived (`done`).
    public var time: Double?
    /// Bytes the child should expect (`offer`) or received (`done`).
    public var bytes: Int?
    /// Messages received (`done`).
    public var messages: Int?
    /// A figure the child measured (CallCPU: its CPU seconds per call-second).
    public var value: Double?

    public init(type: String, sdp: String? = nil, candidate: ICECandidateInit? = nil, time: Double? = nil,
                bytes: Int? = nil, messages: Int? = nil, value: Double? = nil) {
        self.type = type
        self.sdp = sdp
        self.candidate = candidate
        self.time = time
        self.bytes = bytes
        self.messages = messages
        self.value = value
    }
}

/// Newline-delimited JSON signals over two file descriptors: a reader thread decodes incoming
/// lines into `incoming` (single consumer); `send` writes one line, serialized by a lock.
public final class SignalPipe: Sendable {
    public let incoming: AsyncStream<Signal>
    private let writeFD: Int32
    private let writeLock = Mutex(())

    public init(readFD: Int32, writeFD: Int32) {
        self.writeFD = writeFD
        let (stream, continuation) = AsyncStream.makeStream(of: Signal.self, bufferingPolicy: .unbounded)
        incoming = stream
        let thread = Thread {
            var pending: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            let decoder = JSONDecoder()
            while true {
                let count = chunk.withUnsafeMutableBytes { read(readFD, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                pending.append(contentsOf: chunk[0..<count])
                while let newline = pending.firstIndex(of: 0x0A) {
                    let line = Data(pending[..<newline])
                    pending.removeSubrange(...newline)
                    if let signal = try? decoder.decode(Signal.self, from: line) { continuation.yield(signal) }
                }
            }
            continuation.finish()
        }
        thread.start()
    }

    /// Writes `signal` as one line; a closed pipe (the peer process exited) is ignored.
    public func send(_ signal: Signal) {
        guard var data = try? JSONEncoder().encode(signal) else { return }
        data.append(0x0A)
        writeLock.withLock { _ in
            data.withUnsafeBytes { raw in
                guard let base = raw.baseAddress else { return }
                var offset = 0
                while offset < raw.count {
                    let written = write(writeFD, base + offset, raw.count - offset)
                    if written < 0, errno == EINTR { continue }
                    guard written > 0 else { return }
                    offset += written
                }
            }
        }
    }
}

/// A value set once and awaited by any number of tasks.
public final class Latch<Value: Sendable>: Sendable {
    private struct State {
        var value: Value?
        var waiters: [CheckedContinuation<Value, Never>] = []
    }
    private let state = Mutex(State())

    /// Sets the value (the first call wins) and wakes every waiter.
    public init() {}

    public func resolve(_ value: Value) {
        let waiters = state.withLock { state -> [CheckedContinuation<Value, Never>] in
            guard state.value == nil else { return [] }
            state.value = value
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: value) }
    }

    /// The value, once set.
    public func wait() async -> Value {
        await withCheckedContinuation { continuation in
            let value = state.withLock { state -> Value? in
                if let value = state.value { return value }
                state.waiters.append(continuation)
                return nil
            }
            if let value { continuation.resume(returning: value) }
        }
    }
}

/// A boolean set once, readable from any thread.
public final class Flag: Sendable {
    private let value = Atomic<Bool>(false)
    public init() {}
    public func set() { value.store(true, ordering: .releasing) }
    public var isSet: Bool { value.load(ordering: .acquiring) }
}

public import TernSignaling
import AsyncHTTPClient
import Logging
import NIOCore
import Synchronization
import TernCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Pushes invitations to the application's backend: POSTs each `PushInvitation` as JSON to a
/// webhook URL with `X-Tern-Signature: sha256=<hex HMAC-SHA256 of the body under the secret>`;
/// the backend turns it into an APNs/FCM/VoIP push. A 2xx answer delivers it; anything else
/// (refused, 5xx, timeout) is retried with doubling back-off until the invitation's ring time
/// ends. On AsyncHTTPClient.
public final class SignalingPushWebhook: SignalingPushSender {
    /// Totals since start, for `/metrics`.
    public struct Counters: Sendable, Hashable {
        /// POSTs sent (first tries and retries).
        public var attempts = 0
        /// Invitations the webhook took (a 2xx answer).
        public var delivered = 0
        /// POSTs that failed (no answer in time, refused, not 2xx).
        public var failures = 0
        /// Invitations given up on: the ring time ended before a 2xx.
        public var expired = 0
        /// Invitations not even tried: `maxInFlight` were being delivered already.
        public var dropped = 0
    }

    public let policy: SignalingPushPolicy
    /// Where invitations are POSTed.
    public let url: String
    /// Pushes being delivered at once, at most; more are counted `dropped` (a caller inviting
    /// thousands of absent users cannot make the server hold thousands of retry loops).
    public let maxInFlight: Int
    /// The first retry's wait; each next one doubles, up to `maxBackoff`.
    public let initialBackoff: Duration
    public let maxBackoff: Duration
    /// One POST's time limit.
    public let requestTimeout: Duration

    private let secret: String
    private let client: HTTPClient
    private let wallClockMs: @Sendable () -> Int64
    private let logger = TernLog.logger("signaling.push")
    private let state = Mutex<(counters: Counters, inFlight: Int)>((Counters(), 0))

    /// A webhook at `url` (http:// or https://) signing with `secret` (at least 32 bytes, as the
    /// token secret: RFC 2104 §3 wants a key as long as the hash). `wallClockMs` (milliseconds
    /// since 1970) dates `expiresAt`; the system clock by default.
    public init(url: String, secret: String, policy: SignalingPushPolicy = .whenOffline, maxInFlight: Int = 1_000,
                initialBackoff: Duration = .milliseconds(250), maxBackoff: Duration = .seconds(4),
                requestTimeout: Duration = .seconds(5),
                wallClockMs: (@Sendable () -> Int64)? = nil)
        throws(SignalingServerError)
    {
        guard url.hasPrefix("http://") || url.hasPrefix("https://") else { throw .badPushWebhook(url: url) }
        guard secret.utf8.count >= SignalingTokens.minimumSecretBytes else {
            throw .secretTooShort(bytes: secret.utf8.count, minimum: SignalingTokens.minimumSecretBytes)
        }
        self.url = url
        self.secret = secret
        self.policy = policy
        self.maxInFlight = maxInFlight
        self.initialBackoff = initialBackoff
        self.maxBackoff = maxBackoff
        self.requestTimeout = requestTimeout
        // expiresAt is wall-clock time: the device that gets the push compares it with its own clock.
        self.wallClockMs = wallClockMs ?? { Int64(Date().timeIntervalSince1970 * 1000) }
        client = HTTPClient(eventLoopGroupProvider: .singleton)
    }

    /// The totals so far.
    public var counters: Counters { state.withLock { $0.counters } }

    public func push(_ invite: Invite, to user: String, ringMs: Int) {
        let admitted = state.withLock { state in
            guard state.inFlight < maxInFlight else {
                state.counters.dropped += 1
                return false
            }
            state.inFlight += 1
            return true
        }
        guard admitted else {
            logger.warning("push for call \(LogText.escaped(invite.callId)) dropped: \(maxInFlight) pushes in flight")
            return
        }
        let invitation = PushInvitation(invite: invite, to: user, expiresAt: wallClockMs() + Int64(ringMs))
        let deadline = ContinuousClock.now + .milliseconds(ringMs)
        Task { await deliver(invitation, until: deadline) }
    }

    /// Tries until a 2xx or `deadline`, backing off between tries.
    private func deliver(_ invitation: PushInvitation, until deadline: ContinuousClock.Instant) async {
        defer { state.withLock { $0.inFlight -= 1 } }
        let body = invitation.body()
        let signature = PushInvitation.signature(of: body, secret: secret)
        var backoff = initialBackoff
        while ContinuousClock.now < deadline {
            state.withLock { $0.counters.attempts += 1 }
            let outcome = await post(body, signature: signature, within: min(requestTimeout, deadline - .now))
            switch outcome {
            case .success:
                state.withLock { $0.counters.delivered += 1 }
                return
            case .failure(let reason):
                state.withLock { $0.counters.failures += 1 }
                logger.notice("push for call \(LogText.escaped(invitation.callId)) to \(LogText.escaped(invitation.to)) failed: \(reason); retrying")
            }
            let wait = min(backoff, deadline - .now)
            guard wait > .zero else { break }
            try? await Task.sleep(for: wait)
            backoff = min(backoff * 2, maxBackoff)
        }
        state.withLock { $0.counters.expired += 1 }
        logger.warning("push for call \(LogText.escaped(invitation.callId)) to \(LogText.escaped(invitation.to)) not delivered within its ring time")
    }

    private func post(_ body: [UInt8], signature: String, within timeout: Duration) async -> Result<Void, PushFailure> {
        guard timeout > .zero else { return .failure(PushFailure("no time left")) }
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: PushInvitation.signatureHeader, value: signature)
        request.body = .bytes(ByteBuffer(bytes: body))
        do {
            let response = try await client.execute(request, timeout: .nanoseconds(timeout.nanoseconds))
            // Read (and bound) the answer so the connection can be reused.
            _ = try? await response.body.collect(upTo: 64 * 1024)
            guard (200..<300).contains(response.status.code) else { return .failure(PushFailure("HTTP \(response.status.code)")) }
            return .success(())
        } catch {
            return .failure(PushFailure(String(describing: error)))
        }
    }

    /// Stops the HTTP client (pushes still retrying fail).
    public func shutdown() async {
        try? await client.shutdown()
    }
}

private struct PushFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

private extension Duration {
    var nanoseconds: Int64 { components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000 }
}

import TernCore
import TernTestSupport
import TernSignaling

/// Drives a `SignalingRouter` by hand: connection numbers, JSON or typed messages in,
/// actions out, time moved explicitly.
struct RouterHarness {
    var router: SignalingRouter
    private let clock = VirtualClock()
    var now: Instant { clock.now }

    init(verifiesTokens: Bool = false, limits: SignalingLimits = SignalingLimits(), push: SignalingPushPolicy = .off) {
        router = SignalingRouter(verifiesTokens: verifiesTokens, limits: limits, push: push)
    }

    mutating func json(_ connection: UInt64, _ text: String) -> [SignalingRouterAction] {
        router.handle(connection: c(connection), text: text, now: now)
    }

    /// Sends `message` encoded as JSON text, the way a client would.
    mutating func send(_ connection: UInt64, _ message: SignalingMessage) -> [SignalingRouterAction] {
        router.handle(connection: c(connection), text: SignalingCodec.encode(message), now: now)
    }

    /// Registers `connection` as `user` in open mode and checks the reply.
    @discardableResult
    mutating func register(_ connection: UInt64, _ user: String, token: String = "dev") -> [SignalingRouterAction] {
        send(connection, .register(user: user, token: token))
    }

    /// The driver's part of a verified `register`: the verifier's answer for `connection`.
    mutating func verified(_ connection: UInt64, _ user: String, _ result: Result<SignalingRole, SignalingError>)
        -> [SignalingRouterAction]
    {
        router.tokenVerified(connection: c(connection), user: user, result: result, now: now)
    }

    mutating func close(_ connection: UInt64) -> [SignalingRouterAction] {
        router.close(connection: c(connection), now: now)
    }

    /// The socket of `connection` failed: its calls are held for a `resume`.
    mutating func drop(_ connection: UInt64) -> [SignalingRouterAction] {
        router.drop(connection: c(connection), now: now)
    }

    /// Moves time on by `ms`, firing the router's timers at their own instants; what they did.
    mutating func advance(ms: Int) -> [SignalingRouterAction] {
        var actions: [SignalingRouterAction] = []
        clock.advance(by: .milliseconds(ms)) {
            router.nextTimeout.map { [$0] } ?? []
        } fire: { now in
            actions += router.handleTimeout(now: now)
        }
        return actions
    }
}

/// A token secret long enough for HS256 (RFC 7518 §3.2), for tests.
let testSecret = "tern-test-secret-0123456789abcdef"

func c(_ n: UInt64) -> SignalingConnectionID { SignalingConnectionID(n) }

func send(_ n: UInt64, _ message: SignalingMessage) -> SignalingRouterAction { .send(c(n), message) }

/// The error codes sent to `connection` in `actions`.
func errorCodes(_ actions: [SignalingRouterAction], to connection: UInt64) -> [SignalingErrorCode] {
    actions.compactMap { action in
        if case .send(let to, .error(let error)) = action, to == c(connection) { return error.code }
        return nil
    }
}

/// The messages sent to `connection` in `actions`, in order.
func messages(_ actions: [SignalingRouterAction], to connection: UInt64) -> [SignalingMessage] {
    actions.compactMap { action in
        if case .send(let to, let message) = action, to == c(connection) { return message }
        return nil
    }
}

/// The last `members` list sent to `connection` in `actions`, as "user state" strings.
func lastMembers(_ actions: [SignalingRouterAction], to connection: UInt64) -> [String]? {
    messages(actions, to: connection).reversed().lazy.compactMap { message -> [String]? in
        if case .members(_, let members) = message { return members.map(\.description) }
        return nil
    }.first
}

/// The pushes asked for in `actions`: (via connection, user, ring ms).
func pushes(_ actions: [SignalingRouterAction]) -> [(UInt64, String, Int)] {
    actions.compactMap { action in
        if case .push(let via, _, let user, let ringMs) = action { return (via.rawValue, user, ringMs) }
        return nil
    }
}

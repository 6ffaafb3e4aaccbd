public import TernSignaling
import JWTKit
#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Registration tokens: JSON Web Tokens (RFC 7519) signed HS256 with the server's secret,
/// minted and verified by vapor/jwt-kit.
///
/// Claims: `sub` the user id (compared byte for byte with `register`'s `user`), `exp`
/// (required: a token lives as long as its issuer said), optional `nbf`, and `role`:
/// `"user"` (the default when absent) or `"agent"` (may `pick` queue requests). The
/// application's backend, which knows the secret, mints a token for a user it has
/// authenticated; the signaling server checks it without any user database. A token is
/// checked once, at `register`: a connection outlives its token's `exp`, so a call in
/// progress is not cut.
public struct SignalingTokens: SignalingTokenVerifier {
    /// RFC 7518 §3.2: an HS256 key must be at least as long as the hash output.
    public static let minimumSecretBytes = 32

    private let keys: JWTKeyCollection
    /// The wall clock `exp` and `nbf` are compared with.
    private let now: @Sendable () -> Date

    /// Tokens under `secret` (at least `minimumSecretBytes` UTF-8 bytes).
    public init(secret: String, now: @escaping @Sendable () -> Date = { Date() }) async throws(SignalingServerError) {
        guard secret.utf8.count >= Self.minimumSecretBytes else {
            throw .secretTooShort(bytes: secret.utf8.count, minimum: Self.minimumSecretBytes)
        }
        keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
        self.now = now
    }

    /// A token for `user` with `role`, valid from `notBefore` (default: now) for `lifetime`.
    public func mint(user: String, role: SignalingRole = .user, lifetime: Duration,
                     notBefore: Date? = nil) async throws -> String
    {
        // NumericDate in whole seconds (RFC 7519 §2), as most JWT libraries write them.
        func whole(_ date: Date) -> Date { Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)) }
        let start = whole(notBefore ?? now())
        let claims = SignalingTokenClaims(
            sub: SubjectClaim(value: user),
            exp: ExpirationClaim(value: start.addingTimeInterval(TimeInterval(lifetime.components.seconds))),
            nbf: notBefore.map { _ in NotBeforeClaim(value: start) },
            role: role.rawValue)
        return try await keys.sign(claims)
    }

    public func verify(token: String, user: String) async -> Result<SignalingRole, SignalingError> {
        let claims: SignalingTokenClaims
        do {
            claims = try await keys.verify(token, as: SignalingTokenClaims.self)
        } catch {
            return .failure(SignalingError(code: .badToken, message: "the token is not a JWT signed with this server's secret (HS256)"))
        }
        guard claims.sub.value.utf8.elementsEqual(user.utf8) else {
            return .failure(SignalingError(code: .badToken, message: "the token is for another user (sub)"))
        }
        guard let exp = claims.exp else {
            return .failure(SignalingError(code: .badToken, message: "the token has no exp: tokens must expire"))
        }
        guard let role = SignalingRole(rawValue: claims.role ?? SignalingRole.user.rawValue) else {
            return .failure(SignalingError(code: .badToken, message: "role must be \"user\" or \"agent\""))
        }
        let current = now()
        do { try exp.verifyNotExpired(currentDate: current) } catch {
            return .failure(SignalingError(code: .tokenExpired, message: "the token expired at \(exp.value.timeIntervalSince1970) (exp, seconds since 1970); ask for a new one"))
        }
        if let nbf = claims.nbf {
            do { try nbf.verifyNotBefore(currentDate: current) } catch {
                return .failure(SignalingError(code: .tokenNotYetValid, message: "the token is not valid before \(nbf.value.timeIntervalSince1970) (nbf, seconds since 1970)"))
            }
        }
        return .success(role)
    }
}

/// The claims of a registration token (see `SignalingTokens`).
struct SignalingTokenClaims: JWTPayload {
    var sub: SubjectClaim
    var exp: ExpirationClaim?
    var nbf: NotBeforeClaim?
    var role: String?

    /// Claims are checked by `SignalingTokens.verify` against its clock, each with its own
    /// error code; jwt-kit checks the signature.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

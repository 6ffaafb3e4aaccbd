import Foundation
import Testing
import TernCore
import TernSignaling
import TernSignalingServer

/// JWT registration tokens (`SignalingTokens`, jwt-kit): each way a token is wrong has its own code.
@Suite("Signaling tokens (JWT)")
struct SignalingTokensTests {
    /// 2026-11-27 12:00:00 UTC, the verifier's clock in these tests.
    static let noon = Date(timeIntervalSince1970: 1_795_780_800)
    static func tokens(secret: String = testSecret) async throws -> SignalingTokens {
        try await SignalingTokens(secret: secret, now: { noon })
    }

    @Test("a minted token registers its user with its role")
    func roundTrip() async throws {
        let tokens = try await Self.tokens()
        let user = try await tokens.mint(user: "alice", lifetime: .seconds(3600))
        let agent = try await tokens.mint(user: "ann", role: .agent, lifetime: .seconds(3600))
        #expect(await tokens.verify(token: user, user: "alice") == .success(.user))
        #expect(await tokens.verify(token: agent, user: "ann") == .success(.agent))
        #expect(user.split(separator: ".").count == 3, "compact JWS: header.payload.signature")
    }

    @Test("expired → tokenExpired; not yet valid → tokenNotYetValid; another user's → badToken; another secret's → badToken")
    func refusals() async throws {
        let tokens = try await Self.tokens()
        let expired = try await tokens.mint(user: "alice", lifetime: .seconds(60), notBefore: Self.noon.addingTimeInterval(-120))
        let early = try await tokens.mint(user: "alice", lifetime: .seconds(60), notBefore: Self.noon.addingTimeInterval(30))
        let bobs = try await tokens.mint(user: "bob", lifetime: .seconds(60))
        let foreign = try await Self.tokens(secret: "another-secret-of-enough-length-00").mint(user: "alice", lifetime: .seconds(60))
        #expect(await code(tokens, expired, "alice") == .tokenExpired)
        #expect(await code(tokens, early, "alice") == .tokenNotYetValid)
        #expect(await code(tokens, bobs, "alice") == .badToken)
        #expect(await code(tokens, foreign, "alice") == .badToken)
        #expect(await code(tokens, "00", "alice") == .badToken)
        #expect(await code(tokens, "", "alice") == .badToken)
    }

    @Test("a token for \"Ame\\u{301}lie\" does not register \"Amélie\": the subject is compared byte for byte")
    func lookAlike() async throws {
        let tokens = try await Self.tokens()
        let decomposed = try await tokens.mint(user: "Ame\u{301}lie", lifetime: .seconds(60))
        #expect(await code(tokens, decomposed, "Am\u{E9}lie") == .badToken)
        #expect(await tokens.verify(token: decomposed, user: "Ame\u{301}lie") == .success(.user))
    }

    @Test("hand-made tokens: alg none, no exp, an unknown role, all refused badToken")
    func forged() async throws {
        let tokens = try await Self.tokens()
        let future = Int(Self.noon.timeIntervalSince1970) + 600
        let none = jws(header: #"{"alg":"none","typ":"JWT"}"#, payload: #"{"sub":"alice","exp":\#(future)}"#, key: nil)
        let noExp = jws(header: #"{"alg":"HS256","typ":"JWT"}"#, payload: #"{"sub":"alice"}"#, key: testSecret)
        let admin = jws(header: #"{"alg":"HS256","typ":"JWT"}"#, payload: #"{"sub":"alice","exp":\#(future),"role":"admin"}"#, key: testSecret)
        let good = jws(header: #"{"alg":"HS256","typ":"JWT"}"#, payload: #"{"sub":"alice","exp":\#(future),"role":"agent"}"#, key: testSecret)
        #expect(await code(tokens, none, "alice") == .badToken)
        #expect(await code(tokens, noExp, "alice") == .badToken)
        #expect(await code(tokens, admin, "alice") == .badToken)
        #expect(await tokens.verify(token: good, user: "alice") == .success(.agent), "the hand-made HS256 token itself is sound")
    }

    @Test("a secret shorter than 32 bytes is refused (RFC 7518 §3.2), an empty one too")
    func shortSecret() async {
        await #expect(throws: SignalingServerError.secretTooShort(bytes: 6, minimum: 32)) { try await SignalingTokens(secret: "s3cret") }
        await #expect(throws: SignalingServerError.secretTooShort(bytes: 0, minimum: 32)) { try await SignalingTokens(secret: "") }
    }

    private func code(_ tokens: SignalingTokens, _ token: String, _ user: String) async -> SignalingErrorCode? {
        if case .failure(let error) = await tokens.verify(token: token, user: user) { return error.code }
        return nil
    }

    /// A compact JWS signed HS256 with `key` (TernCore's swift-crypto HMAC), or unsigned.
    private func jws(header: String, payload: String, key: String?) -> String {
        func b64url(_ bytes: [UInt8]) -> String {
            Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        let input = b64url(Array(header.utf8)) + "." + b64url(Array(payload.utf8))
        guard let key else { return input + "." }
        return input + "." + b64url(HMACSHA256.authenticate(Array(input.utf8), key: Array(key.utf8)))
    }
}

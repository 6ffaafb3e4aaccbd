#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TernCore

/// The body the signaling server POSTs to the application's push webhook when an invitee has no
/// live connection (Docs/SIGNALING.md "Invitations delivered by push"), and what the app hands
/// back to `CallAgent.handlePushMessage` once the push reached the device:
///
/// ```json
/// {"attachedData":[],"callId":"c1","expiresAt":1795000000000,"from":"alice",
///  "media":{"audio":true,"data":false,"video":false},"mode":"oneToOne","to":"bob"}
/// ```
///
/// Signed with the header `X-Tern-Signature: sha256=<lowercase hex HMAC-SHA256 of the body
/// bytes, keyed with the server's push secret>`, so a forged or altered push is told apart.
public struct PushInvitation: Codable, Hashable, Sendable {
    /// The call the invitation belongs to.
    public var callId: String
    /// Who invites.
    public var from: String
    /// The invitee this push is for.
    public var to: String
    /// What the caller proposes.
    public var media: MediaOptions
    /// The invite's attached data.
    public var attachedData: [AttachedData]
    /// When the invitation stops ringing, in milliseconds since 1970 (UTC).
    public var expiresAt: Int64
    /// One-to-one, group or first-answer.
    public var mode: InviteMode

    /// The header carrying the signature.
    public static let signatureHeader = "X-Tern-Signature"

    /// Creates a payload.
    public init(callId: String, from: String, to: String, media: MediaOptions, attachedData: [AttachedData],
                expiresAt: Int64, mode: InviteMode) {
        self.callId = callId
        self.from = from
        self.to = to
        self.media = media
        self.attachedData = attachedData
        self.expiresAt = expiresAt
        self.mode = mode
    }

    /// The push for `user` of `invite` as delivered (its `from` set by the router), ringing until
    /// `expiresAt` (milliseconds since 1970).
    public init(invite: Invite, to user: String, expiresAt: Int64) {
        self.init(callId: invite.callId, from: invite.from ?? "", to: user, media: invite.media,
                  attachedData: invite.attachedData, expiresAt: expiresAt, mode: invite.mode)
    }

    /// The JSON body (keys sorted) to POST.
    public func body() -> [UInt8] {
        // Encoding our own value types cannot fail (strings, numbers, arrays, objects).
        Array((try? SignalingJSON.encoder().encode(self)) ?? Data())
    }

    /// The `X-Tern-Signature` value for `body` under `secret`: `sha256=<hex>`.
    public static func signature(of body: some Sequence<UInt8>, secret: String) -> String {
        "sha256=" + Hex.encode(HMACSHA256.authenticate(body, key: Array(secret.utf8)))
    }

    /// Checks a received push: the signature over the exact body bytes, then the JSON, then the
    /// expiry against `nowEpochMs` (the device's wall clock).
    public static func verify(body: some Collection<UInt8>, signature: String, secret: String, nowEpochMs: Int64)
        throws(PushInvitationError) -> PushInvitation
    {
        guard signature.hasPrefix("sha256="), let mac = Hex.decode(signature.dropFirst("sha256=".count)),
              HMACSHA256.equal(mac, HMACSHA256.authenticate(body, key: Array(secret.utf8)))
        else { throw .badSignature }
        let invitation: PushInvitation
        do {
            invitation = try SignalingJSON.decoder().decode(PushInvitation.self, from: Data(body))
        } catch {
            throw .malformed(String(describing: error).prefix(200).description)
        }
        guard invitation.expiresAt > nowEpochMs else {
            throw .expired(expiresAt: invitation.expiresAt, now: nowEpochMs)
        }
        return invitation
    }
}

/// Why a received push is not a call to ring for.
public enum PushInvitationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The `X-Tern-Signature` is missing, malformed, or not the HMAC of this body under the
    /// configured push secret (forged, altered, or a different secret on the two sides).
    case badSignature
    /// Signed, but not a push invitation body.
    case malformed(String)
    /// The invitation's ring time is over.
    case expired(expiresAt: Int64, now: Int64)

    public var description: String {
        switch self {
        case .badSignature: "the push signature does not match its body under the configured push secret"
        case .malformed(let detail): "the push body is not a Tern push invitation: \(detail)"
        case .expired(let expiresAt, let now): "the push expired at \(expiresAt) ms since 1970 (now \(now))"
        }
    }
}

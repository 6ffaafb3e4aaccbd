#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A push the application received for this user: the webhook body, byte for byte, and its
/// `X-Tern-Signature` header (however the app's backend carried them: APNs/FCM payload fields).
public struct CallPushMessage: Hashable, Sendable {
    public var body: [UInt8]
    public var signature: String

    public init(body: [UInt8], signature: String) {
        self.body = body
        self.signature = signature
    }

    public init(body: String, signature: String) {
        self.init(body: Array(body.utf8), signature: signature)
    }
}

extension CallAgent {
    /// Hands the agent a push it received. It checks the signature (`CallConfiguration.pushSecret`)
    /// and the expiry, connects if it was stopped (the server then delivers the pending invite,
    /// which rings as any incoming call), and asks the server whether the call still rings; a
    /// forged, stale, cancelled or answered push surfaces as `.call(.invalidPushCall)` instead.
    public func handlePushMessage(_ message: CallPushMessage) async {
        let wallClockMs = Int64(Date().timeIntervalSince1970 * 1000)
        await process(core.handlePush(body: message.body, signature: message.signature, nowEpochMs: wallClockMs,
                                      now: clock.now()))
    }
}

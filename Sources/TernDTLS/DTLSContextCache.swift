internal import COpenSSL
import Synchronization

/// One `SSL_CTX` per SRTP profile list, shared by every `DTLSEndpoint` of the process
/// (`DTLSEndpoint.makeContext`): the context holds only settings common to all connections
/// (version, cipher suites, groups, use_srtp, verification callback); the certificate is set
/// on each `SSL`. OpenSSL lets many threads create `SSL`s from one configured context. The
/// contexts live as long as the process (a handful at most: one per distinct profile list).
enum DTLSContextCache {
    /// An `SSL_CTX *` that is never modified after it is cached.
    private struct Context: @unchecked Sendable {
        let pointer: OpaquePointer
    }
    private static let contexts = Mutex<[[SRTPProtectionProfile]: Context]>([:])

    /// The shared context for `srtpProfiles`, with one more reference that the caller owns
    /// (`SSL_CTX_free` it when done).
    static func context(srtpProfiles: [SRTPProtectionProfile]) throws(DTLSError) -> OpaquePointer {
        let context = try contexts.withLock { cache throws(DTLSError) -> OpaquePointer in
            if let cached = cache[srtpProfiles] { return cached.pointer }
            let made = try DTLSEndpoint.makeContext(srtpProfiles: srtpProfiles)
            cache[srtpProfiles] = Context(pointer: made)
            return made
        }
        SSL_CTX_up_ref(context)
        return context
    }
}

public import TernCore
internal import CSRTP
import Synchronization

/// One direction of SRTP/SRTCP (RFC 3711) on libsrtp2, keyed from DTLS-SRTP (RFC 5764 §4.2):
/// an `.outbound` session protects what this side sends, an `.inbound` one checks and
/// decrypts what the peer sends, for any SSRC.
///
/// Media never sees a throw: an authentication failure, a replay or a malformed packet
/// returns an `Outcome` other than `.ok` and bumps a counter in `statistics`; the packet keeps
/// its length but its bytes are then unspecified (libsrtp may have worked in place): drop it.
///
/// Thread-safety: libsrtp's `srtp_t` is not thread-safe; every call on a session runs under
/// the session's `Mutex` (which also guards the counters), so a session may be shared, but
/// one session per sending/receiving thread is what keeps it uncontended.
public final class SRTPSession: @unchecked Sendable {
    /// Which traffic a session handles.
    public enum Direction: String, Sendable {
        /// Protects what this side sends (`srtp_protect`).
        case outbound
        /// Verifies and decrypts what the peer sends (`srtp_unprotect`).
        case inbound
    }

    /// What happened to one packet.
    public enum Outcome: Equatable, Sendable {
        /// Protected or unprotected in place.
        case ok
        /// The authentication tag did not verify (RFC 3711 §3.3 step 5): dropped.
        case authenticationFailed
        /// The index was already seen or is too old for the replay window (RFC 3711 §3.3.2): dropped.
        case replayed
        /// Too short or not an RTP/RTCP packet: dropped.
        case malformed
        /// Another libsrtp status: dropped.
        case failed(status: Int32)
    }

    /// Counters, readable from any thread.
    public struct Statistics: Sendable, Equatable {
        /// RTP packets protected (outbound) or accepted (inbound).
        public var rtpPackets = 0
        /// RTCP packets protected (outbound) or accepted (inbound).
        public var rtcpPackets = 0
        /// Packets dropped because the authentication tag did not verify.
        public var authenticationFailures = 0
        /// Packets dropped as replays or too old for the window.
        public var replays = 0
        /// Packets dropped as too short or not RTP/RTCP.
        public var malformed = 0
        /// Packets dropped for any other libsrtp status.
        public var otherFailures = 0
    }

    /// The profile in use.
    public let profile: SRTPProtectionProfile
    /// The direction.
    public let direction: Direction

    private let session: OpaquePointer  // srtp_t, only used under `state`'s lock
    private let state = Mutex(Statistics())

    /// libsrtp's one-time initialisation (`srtp_init`, which self-tests every cipher), run once
    /// per process (Swift's lazy static initialisation is thread-safe). The crypto backend is
    /// held first so that neither the self-tests nor later sessions reload it (see the shim).
    private static let libraryStatus: Int32 = {
        _ = tern_srtp_hold_crypto_backend()
        return Int32(bitPattern: srtp_init().rawValue)
    }()

    /// Runs libsrtp's one-time initialisation now (10–30 ms on first use) instead of inside the
    /// first DTLS handshake that completes. A peer connection calls this off its caller's
    /// thread when it is created, so the first call's set-up does not pay for it. Idempotent.
    public static func prepareLibrary() {
        _ = libraryStatus
    }

    /// Creates a session from a master key and salt (copied into libsrtp; wipe your own copies).
    /// - Parameter replayWindow: packets of the replay window (libsrtp accepts 64...32768).
    public convenience init(profile: SRTPProtectionProfile, key: [UInt8], salt: [UInt8], direction: Direction,
                            replayWindow: Int = 1024) throws(SRTPError) {
        guard key.count == profile.keyLength, salt.count == profile.saltLength else {
            throw .invalidKeyLength(profile: profile, keyLength: key.count, saltLength: salt.count)
        }
        var master = key + salt
        defer { SecretBytes.wipe(&master) }
        let session = try Self.create(profile: profile, master: &master, direction: direction, replayWindow: replayWindow)
        self.init(session: session, profile: profile, direction: direction)
    }

    /// The session protecting what `role` sends (`.outbound`) or checking what it receives
    /// (`.inbound`). The master key passes through one buffer, wiped after libsrtp copied it.
    public convenience init(keying: SRTPKeyingMaterial, role: DTLSRole, direction: Direction,
                            replayWindow: Int = 1024) throws(SRTPError) {
        // Outbound protects what `role` sends; inbound what the other role sends.
        let sentByClient = (role == .client) == (direction == .outbound)
        let session = try keying.withMasterKey(sentBy: sentByClient) { master throws(SRTPError) in
            try Self.create(profile: keying.profile, master: &master, direction: direction, replayWindow: replayWindow)
        }
        self.init(session: session, profile: keying.profile, direction: direction)
    }

    private init(session: OpaquePointer, profile: SRTPProtectionProfile, direction: Direction) {
        self.session = session
        self.profile = profile
        self.direction = direction
    }

    /// `srtp_create` with `master` (key | salt), which libsrtp copies.
    private static func create(profile: SRTPProtectionProfile, master: inout [UInt8], direction: Direction,
                               replayWindow: Int) throws(SRTPError) -> OpaquePointer {
        guard libraryStatus == 0 else { throw .library(operation: "srtp_init", status: libraryStatus) }
        var policy = srtp_policy_t()
        setCryptoPolicies(&policy, profile: profile)
        policy.ssrc.type = direction == .outbound ? ssrc_any_outbound : ssrc_any_inbound
        policy.window_size = UInt(min(max(replayWindow, 64), 32_768))
        // An outbound stream may protect the same packet index again: that is how a NACKed
        // packet is retransmitted without RTX (RFC 4585 §6.2.1); libwebrtc sets the same flag.
        // The receiver's replay window still accepts it only if the first copy was lost.
        policy.allow_repeat_tx = direction == .outbound ? 1 : 0
        var created: OpaquePointer?
        let status = master.withUnsafeMutableBufferPointer { buffer in
            policy.key = buffer.baseAddress
            return srtp_create(&created, &policy)  // copies the key
        }
        guard status == srtp_err_status_ok, let created else {
            throw .library(operation: "srtp_create", status: Int32(bitPattern: status.rawValue))
        }
        return created
    }

    deinit { srtp_dealloc(session) }

    /// Counters so far.
    public var statistics: Statistics { state.withLock { $0 } }

    /// Encrypts and authenticates an RTP packet in place (grows by the tag).
    public func protectRTP(_ packet: inout [UInt8]) -> Outcome { transform(&packet, rtcp: false, protect: true) }

    /// Authenticates, replay-checks and decrypts an SRTP packet in place.
    public func unprotectRTP(_ packet: inout [UInt8]) -> Outcome { transform(&packet, rtcp: false, protect: false) }

    /// Encrypts and authenticates an RTCP compound packet in place (adds the SRTCP index and tag).
    public func protectRTCP(_ packet: inout [UInt8]) -> Outcome { transform(&packet, rtcp: true, protect: true) }

    /// Authenticates, replay-checks and decrypts an SRTCP packet in place.
    public func unprotectRTCP(_ packet: inout [UInt8]) -> Outcome { transform(&packet, rtcp: true, protect: false) }

    /// Drops what libsrtp holds for `ssrc` (its replay window, rollover counter and cipher
    /// contexts), created from the template when the SSRC's first packet arrived. A packet for it
    /// later starts afresh. No effect if the SSRC is unknown.
    public func removeStream(ssrc: UInt32) {
        let session = self.session
        // libsrtp looks streams up by the SSRC in network byte order, as it sits in the header.
        state.withLock { _ in _ = srtp_remove_stream(session, ssrc.bigEndian) }
    }

    /// The rollover counter libsrtp holds for `ssrc` (RFC 3711 §3.3.1), or nil if the SSRC is unknown.
    public func rolloverCounter(ssrc: UInt32) -> UInt32? {
        state.withLock { _ in
            var roc: UInt32 = 0
            return srtp_get_stream_roc(session, ssrc, &roc) == srtp_err_status_ok ? roc : nil
        }
    }

    private func transform(_ packet: inout [UInt8], rtcp: Bool, protect: Bool) -> Outcome {
        // RTP fixed header (RFC 3550 §5.1) or RTCP header + sender SSRC (§6.4).
        let minimum = rtcp ? 8 : 12
        guard packet.count >= minimum, packet[0] >> 6 == 2, packet.count <= 65_535 else {
            state.withLock { $0.malformed += 1 }
            return .malformed
        }
        let originalCount = packet.count
        if protect { packet.append(contentsOf: repeatElement(0, count: profile.trailerLength(rtcp: rtcp))) }
        let session = self.session
        return state.withLock { statistics -> Outcome in
            var length = Int32(originalCount)
            let status = packet.withUnsafeMutableBytes { raw -> srtp_err_status_t in
                switch (rtcp, protect) {
                case (false, true): srtp_protect(session, raw.baseAddress, &length)
                case (false, false): srtp_unprotect(session, raw.baseAddress, &length)
                case (true, true): srtp_protect_rtcp(session, raw.baseAddress, &length)
                case (true, false): srtp_unprotect_rtcp(session, raw.baseAddress, &length)
                }
            }
            let outcome = Self.outcome(status)
            if outcome == .ok, length >= 0, Int(length) <= packet.count {
                packet.removeLast(packet.count - Int(length))
                if rtcp { statistics.rtcpPackets += 1 } else { statistics.rtpPackets += 1 }
                return .ok
            }
            packet.removeLast(packet.count - originalCount)
            switch outcome {
            case .authenticationFailed: statistics.authenticationFailures += 1
            case .replayed: statistics.replays += 1
            case .malformed: statistics.malformed += 1
            default: statistics.otherFailures += 1
            }
            return outcome == .ok ? .failed(status: -1) : outcome
        }
    }

    private static func outcome(_ status: srtp_err_status_t) -> Outcome {
        switch status {
        case srtp_err_status_ok: .ok
        case srtp_err_status_auth_fail: .authenticationFailed
        case srtp_err_status_replay_fail, srtp_err_status_replay_old: .replayed
        case srtp_err_status_bad_param, srtp_err_status_parse_err: .malformed
        default: .failed(status: Int32(bitPattern: status.rawValue))
        }
    }

    private static func setCryptoPolicies(_ policy: inout srtp_policy_t, profile: SRTPProtectionProfile) {
        switch profile {
        case .aes128CmSha1_80:
            srtp_crypto_policy_set_rtp_default(&policy.rtp)
            srtp_crypto_policy_set_rtcp_default(&policy.rtcp)
        case .aes128CmSha1_32:
            srtp_crypto_policy_set_aes_cm_128_hmac_sha1_32(&policy.rtp)
            srtp_crypto_policy_set_rtcp_default(&policy.rtcp)  // SRTCP keeps the 80-bit tag (RFC 5764 §4.1.2)
        case .aeadAes128Gcm:
            srtp_crypto_policy_set_aes_gcm_128_16_auth(&policy.rtp)
            srtp_crypto_policy_set_aes_gcm_128_16_auth(&policy.rtcp)
        case .aeadAes256Gcm:
            srtp_crypto_policy_set_aes_gcm_256_16_auth(&policy.rtp)
            srtp_crypto_policy_set_aes_gcm_256_16_auth(&policy.rtcp)
        }
    }
}

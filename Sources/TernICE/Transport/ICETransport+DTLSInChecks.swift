internal import CNice

// DTLS in connectivity checks: Tern's libnice patch (`dtls-in-stun`, Patches/) carries the
// records the application hands it in every check and success reply of the component, and
// hands records found in an authenticated check, or in a reply to one of ours, up like a
// datagram from the check's source. The DTLS client's ClientHello then rides in its first
// check and the server's flight comes back in the reply, so the handshake's first round trip
// is the connectivity check's own (the idea of draft-hancke-webrtc-sped; Docs/ICE.md, "DTLS in
// the checks"). Only used when both descriptions offer it (`PeerConfiguration.negotiatesDTLSInChecks`).
extension ICETransport {
    /// The patch's boolean property that turns it on for this agent.
    static let dtlsInChecksProperty = "dtls-in-stun"
    /// How many record payloads came in checks or replies, and their bytes (read-only
    /// properties of the patch).
    static let dtlsInChecksReceivedProperty = "dtls-in-stun-received"
    static let dtlsInChecksReceivedBytesProperty = "dtls-in-stun-received-bytes"
    /// What one check carries at most (the patch's `NICE_DTLS_IN_STUN_MAX`).
    public static let dtlsInChecksLimit = 1_000

    /// Whether the libnice loaded in this process can carry DTLS in checks.
    public static let libniceCarriesDTLSInChecks: Bool =
        tern_nice_agent_class_has_property(dtlsInChecksProperty) != 0

    /// Hands up the DTLS records the peer's checks and replies carry (this side offers to carry
    /// DTLS in the checks; the peer's first check can come before its answer does). Our own
    /// checks carry nothing until `carryDTLSInChecks`. False when the loaded libnice cannot
    /// (Debian's stock library).
    @discardableResult
    public func acceptDTLSInChecks() -> Bool {
        guard Self.libniceCarriesDTLSInChecks else { return false }
        return sendGate.withLock { open -> Bool in
            guard open else { return false }
            tern_g_object_set_boolean(agent.object, Self.dtlsInChecksProperty, tern_g_true)
            return true
        }
    }

    /// The peer agreed: our checks and replies carry the DTLS flights `carryInChecks` is given
    /// from now on (and the peer's records go up). Call before the checks start. False when the
    /// loaded libnice cannot: DTLS then runs after the checks as before.
    @discardableResult
    public func carryDTLSInChecks() -> Bool {
        guard acceptDTLSInChecks() else { return false }
        state.withLock { $0.carriesDTLSInChecks = true }
        return true
    }

    /// Whether `carryDTLSInChecks` turned carrying on.
    public var carriesDTLSInChecks: Bool { state.withLock { $0.carriesDTLSInChecks } }

    /// Record payloads the peer's checks and replies carried to us (counted by libnice).
    public var dtlsPayloadsReceivedInChecks: Int { Int(receivedInChecks.payloads) }

    /// Payloads and bytes that came up inside checks: `traffic` leaves them out, as W3C leaves
    /// out connectivity checks (the same flight also arrives as a datagram, once a pair is valid).
    var receivedInChecks: (payloads: UInt64, bytes: UInt64) {
        guard Self.libniceCarriesDTLSInChecks else { return (0, 0) }
        return sendGate.withLock { open in
            guard open else { return (0, 0) }
            return (UInt64(tern_g_object_get_uint(agent.object, Self.dtlsInChecksReceivedProperty)),
                    UInt64(tern_g_object_get_uint64(agent.object, Self.dtlsInChecksReceivedBytesProperty)))
        }
    }

    /// Has the next checks and replies carry `datagrams` (one flight: DTLS records, so their
    /// concatenation is itself a valid datagram), replacing what they carried. Does nothing
    /// unless carrying is on; a flight over `dtlsInChecksLimit` bytes is not carried (it goes
    /// as datagrams once a pair is valid, as without carrying).
    public func carryInChecks(_ datagrams: [[UInt8]]) {
        guard carriesDTLSInChecks else { return }
        let records = datagrams.reduce(into: [UInt8]()) { $0 += $1 }
        guard !records.isEmpty, records.count <= Self.dtlsInChecksLimit else { return }
        setCarried(records)
    }

    /// Checks and replies carry nothing from now on (a pair is valid: DTLS goes as datagrams).
    public func stopCarryingInChecks() {
        guard carriesDTLSInChecks else { return }
        setCarried([])
    }

    private func setCarried(_ records: [UInt8]) {
        let agent = self.agent.pointer, stream = streamID
        sendGate.withLock { open in
            guard open else { return }
            _ = records.withUnsafeBufferPointer { bytes in
                tern_nice_agent_set_dtls_in_stun(agent, stream, Self.componentID, bytes.baseAddress, gsize(bytes.count))
            }
        }
    }
}

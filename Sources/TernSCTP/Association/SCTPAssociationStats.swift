/// Counters of what an association dropped or repaired.
public struct SCTPAssociationStats: Sendable, Equatable {
    /// Packets that failed to parse or had a bad checksum.
    public var malformedPackets = 0
    /// Packets whose verification tag did not match (RFC 9260 §8.5).
    public var badVerificationTag = 0
    /// COOKIE ECHOs refused: not signed by us (forged or corrupted) or expired (§5.1.5).
    public var rejectedCookies = 0
    /// Handshakes started again after the peer said our cookie was stale (§5.2.6).
    public var staleCookieRestarts = 0
    /// DATA chunks received twice.
    public var duplicateDataChunks = 0
    /// DATA chunks not taken because they would have overfilled the receive buffer (RFC 9260
    /// §6.2: past the advertised window only the next in-order TSN is accepted); the peer has to
    /// send them again, or abandons them if its partial reliability says so.
    public var dataChunksBeyondWindow = 0
    /// DATA fragments not taken because the reassembly queue held its maximum number of
    /// fragments (`ReassemblyQueue.maxFragments`); the peer has to send them again.
    public var fragmentsRefused = 0
    /// Fragments dropped after `staleFragmentTimeout` without the hole before them filled, and
    /// no longer acknowledged (reneged, RFC 9260 §6.2).
    public var renegedFragments = 0
    /// Chunks the peer acknowledged in a gap block and later no longer did (it reneged): sent
    /// again (RFC 9260 §6.2.1 D iii).
    public var renegedByPeer = 0
    /// Control chunks not sent because alone they exceed the packet size (answers echoing an
    /// oversized chunk from the peer: HEARTBEAT ACK, ERROR for an unrecognized chunk).
    public var oversizedControlChunksDropped = 0
    /// DATA chunks retransmitted (T3 or fast).
    public var retransmittedChunks = 0
    /// Messages abandoned under PR-SCTP.
    public var abandonedMessages = 0
    /// Packets sent.
    public var packetsSent = 0
    /// DATA chunks sent in the packet of a COOKIE ECHO (RFC 9260 §5.1 step C), a round trip
    /// before COOKIE ACK would let them go.
    public var dataChunksBundledWithCookieEcho = 0
    /// Packets received and accepted.
    public var packetsReceived = 0
    /// Times the sender entered fast recovery (RFC 9260 §7.2.4: cwnd halved on a loss).
    public var fastRecoveries = 0
    /// T3-rtx expiries (§6.3.3: cwnd collapsed to one packet).
    public var retransmissionTimeouts = 0
    /// Slow starts ended by HyStart++ on rising RTT rather than by a loss (RFC 9406).
    public var slowStartExitsOnDelay = 0
}

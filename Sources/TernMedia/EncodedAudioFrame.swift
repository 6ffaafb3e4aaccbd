/// One encoded Opus packet as it leaves an encoder or arrives from the network,
/// independent of RTP so that the peer-connection layer can route it.
public struct EncodedAudioFrame: Sendable, Hashable {
    /// RTP media timestamp of the first sample, in 48 kHz units (RFC 7587 §4.1:
    /// the Opus RTP clock is always 48 kHz, whatever the coded bandwidth).
    public var timestamp: UInt32
    /// The Opus packet (RFC 6716 §3): a TOC byte followed by frame data.
    public var data: [UInt8]
    /// Number of samples per channel the packet covers at 48 kHz (960 for 20 ms).
    public var sampleCount: Int

    /// Audio has no keyframes: every Opus packet decodes on its own. Present so that
    /// audio and video frames can be routed by the same code.
    public var isKeyframe: Bool { true }

    /// Whether this is a DTX packet (RFC 7587 §3.1.3: 1–2 bytes, a comfort-noise or
    /// silence frame that the sender may choose not to transmit).
    public var isDiscontinuousTransmissionFrame: Bool { data.count <= 2 }

    /// A frame of `sampleCount` samples per channel starting at `timestamp`.
    public init(timestamp: UInt32, data: [UInt8], sampleCount: Int = 960) {
        self.timestamp = timestamp
        self.data = data
        self.sampleCount = sampleCount
    }
}

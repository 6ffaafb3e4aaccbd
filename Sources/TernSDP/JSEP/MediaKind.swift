/// The kind of an RTP transceiver (W3C `MediaStreamTrack.kind`), also the `m=` media type.
public enum MediaKind: String, Sendable, CaseIterable {
    /// Audio.
    case audio
    /// Video.
    case video
}

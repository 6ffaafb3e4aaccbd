extension MediaDescription {
    /// RTP profiles we accept: DTLS-SRTP with AVPF feedback (RFC 8834 §4.2, RFC 5764).
    static let supportedRTPProtocols: Set<String> = ["UDP/TLS/RTP/SAVPF", "TCP/TLS/RTP/SAVPF", "RTP/SAVPF", "UDP/TLS/RTP/SAVP"]
    /// SCTP over DTLS profiles (RFC 8841 §4).
    static let supportedSCTPProtocols: Set<String> = ["UDP/DTLS/SCTP", "TCP/DTLS/SCTP"]

    /// True for an RTP section we can carry.
    var isSupportedRTP: Bool {
        MediaKind(rawValue: kind) != nil && Self.supportedRTPProtocols.contains(mediaLine.proto.uppercased())
    }

    /// True for a WebRTC data channel section (RFC 8841 §4.1).
    var isDataChannel: Bool {
        kind == "application" && Self.supportedSCTPProtocols.contains(mediaLine.proto.uppercased())
            && mediaLine.formats.contains("webrtc-datachannel")
    }
}

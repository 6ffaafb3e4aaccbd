/// W3C `RTCDataChannelState`; raw values are the exact W3C strings.
public enum DataChannelState: String, Sendable {
    case connecting, open, closing, closed
}

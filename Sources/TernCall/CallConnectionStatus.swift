/// The health of the peer transport of an answered call, reported while the call lasts.
public enum CallConnectionStatus: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Media and data flow.
    case connected
    /// ICE reported `disconnected` (or `failed`): ICE restarts are under way, bounded in
    /// number and time (`CallConfiguration.iceRestart…`).
    case reconnecting
    /// The restarts did not help: the call ends with `disconnected`.
    case failed

    public var description: String { rawValue }
}

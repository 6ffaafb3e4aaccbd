public import TernCore

/// How `a=setup` (RFC 4145 §4, RFC 8842 §5) maps to the shared `DTLSRole` from TernCore.
extension DTLSRole {
    /// Our role when the remote side wrote `remote`: `active` makes us the server, `passive` the client;
    /// nil for `actpass`/`holdconn`, which decide nothing.
    public init?(remoteSetup remote: SetupRole) {
        switch remote {
        case .active: self = .server
        case .passive: self = .client
        case .actpass, .holdconn: return nil
        }
    }

    /// The `a=setup` value that announces this role.
    public var setup: SetupRole { self == .client ? .active : .passive }
}

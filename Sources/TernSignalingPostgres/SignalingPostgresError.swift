/// Why the PostgreSQL mode of the signaling server could not start or went wrong.
public enum SignalingPostgresError: Error, CustomStringConvertible, Sendable {
    /// `--postgres` is not a usable URL.
    case badURL(String, String)
    /// The database refused or failed a statement (migrating, joining, appending).
    case database(String, String)
    /// The shared router state was made by nodes with another configuration (secret on or off,
    /// different limits): every node of one database must be configured alike.
    case configurationMismatch(String)

    public var description: String {
        switch self {
        case let .badURL(url, why): "cannot use \(url): \(why)"
        case let .database(step, why): "PostgreSQL, \(step): \(why)"
        case let .configurationMismatch(why): "this node's configuration differs from the other nodes': \(why)"
        }
    }
}

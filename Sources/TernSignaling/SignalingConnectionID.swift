/// Identifies one client connection to the router (one WebSocket, one in-memory pipe).
/// Chosen by the driver; the router only compares them.
public struct SignalingConnectionID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The driver's number for the connection.
    public var rawValue: UInt64

    /// Wraps a driver-chosen number.
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { "conn#\(rawValue)" }
}

/// Identifies one client connection to the router (one WebSocket, one in-memory pipe).
/// Chosen by the driver; the router only compares them.
public struct SignalingConnectionID: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    /// The driver's number for the connection.
    public var rawValue: UInt64

    /// Wraps a driver-chosen number.
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }

    /// The connection `local` of node `node`: several nodes share one router state, so each
    /// numbers its connections in its own range (the top 16 bits).
    public init(node: UInt16, local: UInt64) { rawValue = UInt64(node) << 48 | (local & 0xFFFF_FFFF_FFFF) }

    /// The node that holds the connection (0 for a single server).
    public var node: UInt16 { UInt16(truncatingIfNeeded: rawValue >> 48) }

    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(UInt64.self) }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { "conn#\(rawValue)" }
}

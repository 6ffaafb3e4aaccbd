/// An IP address and UDP port: one end of a 5-tuple written into a capture.
public struct SocketAddress: Hashable, Sendable, CustomStringConvertible {
    /// The IP address.
    public var address: IPAddress
    /// The UDP port.
    public var port: UInt16

    /// An address from its parts.
    public init(address: IPAddress, port: UInt16) {
        self.address = address
        self.port = port
    }

    /// Parses an IPv4 dotted string or an IPv6 address (no brackets) with a port.
    /// - Throws: `PcapError.invalidAddress` when `host` is not an IP literal
    ///   (host names are not resolved).
    public init(host: String, port: UInt16) throws(PcapError) {
        guard let address = IPAddress(host) else { throw .invalidAddress(host) }
        self.init(address: address, port: port)
    }

    public var description: String {
        address.isIPv4 ? "\(address):\(port)" : "[\(address)]:\(port)"
    }
}

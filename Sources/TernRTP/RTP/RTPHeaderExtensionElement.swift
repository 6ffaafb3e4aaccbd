/// One RFC 8285 header extension element: a local id (negotiated in SDP
/// `a=extmap`) and its value bytes.
public struct RTPHeaderExtensionElement: Sendable, Equatable {
    /// The local identifier (1...14 one-byte, 1...255 two-byte).
    public var id: UInt8
    /// The element's value.
    public var value: ArraySlice<UInt8>

    /// Creates a value from its fields.
    public init(id: UInt8, value: ArraySlice<UInt8>) {
        self.id = id
        self.value = value
    }

    /// Creates a value from its fields.
    public init(id: UInt8, value: [UInt8]) {
        self.init(id: id, value: value[...])
    }
}

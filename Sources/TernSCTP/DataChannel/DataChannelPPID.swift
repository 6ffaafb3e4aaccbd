/// RFC 8831 §8 Payload Protocol Identifiers.
public enum DataChannelPPID {
    /// DCEP (50).
    public static let dcep: UInt32 = 50
    /// Text (PPID 51, or 56 when empty).
    public static let string: UInt32 = 51
    /// Deprecated partial string (must not be used; rejected on receipt).
    public static let stringPartial: UInt32 = 52
    /// Bytes (PPID 53, or 57 when empty).
    public static let binary: UInt32 = 53
    /// Deprecated partial binary (must not be used; rejected on receipt).
    public static let binaryPartial: UInt32 = 54
    /// Empty string (56).
    public static let stringEmpty: UInt32 = 56
    /// Empty binary (57).
    public static let binaryEmpty: UInt32 = 57
}

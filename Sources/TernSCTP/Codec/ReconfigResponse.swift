/// RFC 6525 §4.4: the answer to a re-configuration request.
public struct ReconfigResponse: Equatable, Sendable {
    /// RFC 6525 §4.4 result codes.
    public struct Result: RawRepresentable, Equatable, Sendable {
        public var rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// Success, nothing to do (0).
        public static let successNothingToDo = Result(rawValue: 0)
        /// Success, performed (1).
        public static let successPerformed = Result(rawValue: 1)
        /// Denied (2).
        public static let denied = Result(rawValue: 2)
        /// Error: wrong SSN (3).
        public static let errorWrongSSN = Result(rawValue: 3)
        /// Error: request already in progress (4).
        public static let errorRequestAlreadyInProgress = Result(rawValue: 4)
        /// Error: bad sequence number (5).
        public static let errorBadSequenceNumber = Result(rawValue: 5)
        /// In progress (6): retry later.
        public static let inProgress = Result(rawValue: 6)
    }
    /// Re-configuration Response Sequence Number.
    public var responseSequence: UInt32
    /// Outcome of the request.
    public var result: Result
    /// Optional Sender's Next TSN.
    public var senderNextTSN: UInt32?
    /// Optional Receiver's Next TSN.
    public var receiverNextTSN: UInt32?
    /// Creates a value from its fields.
    public init(responseSequence: UInt32, result: Result, senderNextTSN: UInt32? = nil, receiverNextTSN: UInt32? = nil) {
        self.responseSequence = responseSequence
        self.result = result
        self.senderNextTSN = senderNextTSN
        self.receiverNextTSN = receiverNextTSN
    }
}

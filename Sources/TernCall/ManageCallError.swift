/// A manage-call envelope that was refused. Received ones surface as
/// `CallOutput.manageCallError`; the call goes on.
public enum ManageCallError: Error, Hashable, Sendable, CustomStringConvertible {
    /// More than `ManageCallEnvelope.maximumSize` bytes.
    case tooLarge(size: Int, limit: Int)
    /// Not a JSON object of the documented shape; the text says what is wrong.
    case malformed(String)
    /// A well-formed envelope whose `eventType` this version does not know.
    case unknownEventType(String)
    /// A known `eventType` missing a data item it needs (e.g. `operationName`).
    case missingData(eventType: String, dataName: String)

    public var description: String {
        switch self {
        case .tooLarge(let size, let limit):
            "manage-call envelope of \(size) bytes exceeds the \(limit)-byte limit"
        case .malformed(let reason): "malformed manage-call envelope: \(reason)"
        case .unknownEventType(let type): "unknown manage-call eventType \"\(type)\""
        case .missingData(let type, let name): "manage-call \"\(type)\" lacks the data item \"\(name)\""
        }
    }
}

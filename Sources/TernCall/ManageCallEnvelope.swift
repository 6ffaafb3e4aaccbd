public import TernSignaling
/// One message on the `manage-call` data channel (reliable, ordered, opened by the
/// caller), documented in Docs/MANAGE-CALL.md:
///
/// ```
/// {"eventType":"sendMessage","manageCallEventData":[{"dataName":"processName","dataValue":"CustOnboarding"}]}
/// ```
/// Encoding is byte-exact: these two keys in this order, no spaces, each item
/// `dataName` then `dataValue`, strings escaped per RFC 8259 §7. Decoding accepts any
/// valid JSON object with those members (whitespace and key order free, unknown keys
/// ignored, `manageCallEventData` may be absent) up to `maximumSize` bytes.
public struct ManageCallEnvelope: Hashable, Sendable, CustomStringConvertible {
    /// The largest envelope sent or accepted: 64 KiB.
    public static let maximumSize = 64 * 1024

    /// The envelope's bytes for sending; refused past `maximumSize` (the other side would refuse them).
    func encodedForSending() throws(CallError) -> [UInt8] {
        let bytes = encoded()
        guard bytes.count <= Self.maximumSize else { throw .envelopeTooLarge(size: bytes.count, limit: Self.maximumSize) }
        return bytes
    }

    /// The `eventType` member (see `ManageCallEnvelope.EventType` for the known ones).
    public var eventType: String
    /// The `manageCallEventData` list, in order.
    public var data: [AttachedData]

    /// Creates an envelope.
    public init(eventType: String, data: [AttachedData] = []) {
        self.eventType = eventType
        self.data = data
    }

    /// The `eventType` strings of protocol v1 (Docs/MANAGE-CALL.md).
    public enum EventType {
        /// An application message; surfaces as `MESSAGE_RECEIVED`.
        public static let sendMessage = "sendMessage"
        /// The sender minimized its call screen; surfaces as `CALL_MINIMIZED`.
        public static let callMinimized = "callMinimized"
        /// The sender asks the receiver's app to run an operation (`operationName`);
        /// surfaces as `START_OPERATION` and pauses the receiver's camera.
        public static let startOperation = "startOperation"
        /// The sender orders the receiver back to the video call; surfaces as
        /// `TURN_BACK_TO_VIDEO_CALL` and resumes the receiver's camera.
        public static let turnBackToVideoCall = "turnBackToVideoCall"
        /// A request to change the video direction (`requestId`, `videoMode`).
        public static let videoRequest = "videoRequest"
        /// The answer to a `videoRequest` (`requestId`, then `videoMode` or `result`=`denied`).
        public static let videoAnswer = "videoAnswer"
    }

    /// The envelope as bytes, exactly in the documented form.
    public func encoded() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64 + data.count * 40)
        out.append(contentsOf: Array(#"{"eventType":"#.utf8))
        JSONText.appendString(eventType, to: &out)
        out.append(contentsOf: Array(#","manageCallEventData":["#.utf8))
        for (index, item) in data.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: Array(#"{"dataName":"#.utf8))
            JSONText.appendString(item.dataName, to: &out)
            out.append(contentsOf: Array(#","dataValue":"#.utf8))
            JSONText.appendString(item.dataValue, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        out.append(contentsOf: Array("]}".utf8))
        return out
    }

    /// Reads an envelope received on the data channel; never traps.
    public static func decode(_ bytes: [UInt8]) throws(ManageCallError) -> ManageCallEnvelope {
        guard bytes.count <= maximumSize else { throw .tooLarge(size: bytes.count, limit: maximumSize) }
        let value: JSONText.Value
        do { value = try JSONText.parse(bytes) } catch { throw .malformed(error.description) }
        guard case .object(let members) = value else { throw .malformed("the envelope is not a JSON object") }
        guard let typeValue = members.first(where: { $0.0 == "eventType" })?.1 else {
            throw .malformed("the member \"eventType\" is missing")
        }
        guard case .string(let eventType) = typeValue, !eventType.isEmpty else {
            throw .malformed("\"eventType\" is not a non-empty string")
        }
        var items: [AttachedData] = []
        if let listValue = members.first(where: { $0.0 == "manageCallEventData" })?.1 {
            guard case .array(let list) = listValue else {
                throw .malformed("\"manageCallEventData\" is not an array")
            }
            for (index, element) in list.enumerated() {
                guard case .object(let fields) = element,
                      case .string(let name)? = fields.first(where: { $0.0 == "dataName" })?.1,
                      case .string(let value)? = fields.first(where: { $0.0 == "dataValue" })?.1 else {
                    throw .malformed("manageCallEventData[\(index)] is not {\"dataName\":string,\"dataValue\":string}")
                }
                items.append(AttachedData(dataName: name, dataValue: value))
            }
        }
        return ManageCallEnvelope(eventType: eventType, data: items)
    }

    public var description: String {
        "\(eventType) \(data)"
    }
}

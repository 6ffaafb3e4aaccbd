/// The kind of the last in-call event. Raw values are the facade's strings.
public enum ManageCallEventType: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Initial value: nothing happened yet.
    case noEvent = "NO_EVENT"
    /// The other side minimized its call screen.
    case callMinimized = "CALL_MINIMIZED"
    /// The other side sent an application message.
    case messageReceived = "MESSAGE_RECEIVED"
    /// The other side asks this app to run an operation (e.g. `operationName`=`START_OCR`);
    /// the local camera is paused while it runs.
    case startOperation = "START_OPERATION"
    /// Back to the video call: the local camera resumes. Ordered by the other side, or
    /// by this app through `turnBackToVideoCall`.
    case turnBackToVideoCall = "TURN_BACK_TO_VIDEO_CALL"

    public var description: String { rawValue }
}

import TernSignaling
import TernCore

/// In-call events over the `manage-call` data channel (Docs/MANAGE-CALL.md).
extension CallSession {
    /// Encodes `envelope` for the data channel; needs the call `IN_PROGRESS`.
    func send(_ envelope: ManageCallEnvelope, operation: String,
              _ out: inout [CallOutput]) throws(CallError) {
        guard state == .inProgress else { throw .callNotInProgress(operation: operation, state: state) }
        out.append(.sendManageCall(callId: callId, bytes: try envelope.encodedForSending()))
    }

    /// This app is back from an operation: the camera resumes (if an operation paused
    /// it) and the other side is told with a `turnBackToVideoCall` envelope.
    mutating func turnBackToVideoCall(_ out: inout [CallOutput]) throws(CallError) {
        try send(ManageCallEnvelope(eventType: ManageCallEnvelope.EventType.turnBackToVideoCall),
                 operation: "turn back to the video call", &out)
        lastEvent = .turnBackToVideoCall
        resumeCameraAfterOperation(&out)
    }

    private mutating func resumeCameraAfterOperation(_ out: inout [CallOutput]) {
        guard isCameraPausedForOperation else { return }
        isCameraPausedForOperation = false
        out.append(.action(.resumeCamera(callId: callId)))
    }

    /// Bytes received on the `manage-call` channel. Refused envelopes become
    /// `manageCallError` outputs; the call goes on.
    mutating func receiveManageCall(_ bytes: [UInt8], now: Instant, _ out: inout [CallOutput]) {
        guard isAnswered else { return }
        do {
            let envelope = try ManageCallEnvelope.decode(bytes)
            try dispatch(envelope, now: now, &out)
        } catch {
            out.append(.manageCallError(callId: callId, txCode: txCode, error: error))
        }
    }

    private mutating func dispatch(_ envelope: ManageCallEnvelope, now: Instant,
                                   _ out: inout [CallOutput]) throws(ManageCallError) {
        typealias Kind = ManageCallEnvelope.EventType
        switch envelope.eventType {
        case Kind.sendMessage:
            surface(.messageReceived, envelope.data, &out)
        case Kind.callMinimized:
            surface(.callMinimized, envelope.data, &out)
        case Kind.startOperation:
            guard envelope.data.value(named: "operationName") != nil else {
                throw .missingData(eventType: envelope.eventType, dataName: "operationName")
            }
            surface(.startOperation, envelope.data, &out)
            if !isCameraPausedForOperation {
                isCameraPausedForOperation = true
                out.append(.action(.pauseCamera(callId: callId)))
            }
        case Kind.turnBackToVideoCall:
            surface(.turnBackToVideoCall, envelope.data, &out)
            resumeCameraAfterOperation(&out)
        case Kind.videoRequest:
            try receiveVideoRequest(envelope, now: now, &out)
        case Kind.videoAnswer:
            try receiveVideoAnswer(envelope, &out)
        default:
            throw .unknownEventType(envelope.eventType)
        }
    }

    private mutating func surface(_ type: ManageCallEventType, _ data: [AttachedData], _ out: inout [CallOutput]) {
        lastEvent = type
        out.append(.manageCallEvent(callId: callId, txCode: txCode, event: ManageCallEvent(type: type, data: data)))
    }
}

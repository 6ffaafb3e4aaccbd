public import TernSignaling
public import TernCore

/// Inputs from the peer connection and the in-call features: transport state,
/// `manage-call` events, video mode, hold and camera.
extension CallClient {
    /// The peer connection of `callId` changed state (stale call ids are ignored).
    public mutating func transportChanged(callId: String, _ event: CallTransportEvent, now: Instant) -> [CallOutput] {
        if let leg = GroupCallLeg(key: callId) {
            return ifGroup(leg.callId) { group, out in group.transport(event, member: leg.member, &out) }
        }
        return ifCall(callId) { session, out in session.transport(event, now: now, &out) }
    }

    /// Bytes received on the `manage-call` data channel of `callId`.
    public mutating func receiveManageCall(callId: String, bytes: [UInt8], now: Instant) -> [CallOutput] {
        if let leg = GroupCallLeg(key: callId) {
            return ifGroup(leg.callId) { group, out in group.receiveManageCall(bytes, member: leg.member, &out) }
        }
        return ifCall(callId) { session, out in session.receiveManageCall(bytes, now: now, &out) }
    }

    /// The driver finished the offer/answer that applies an agreed video change.
    public mutating func videoRenegotiated(callId: String, now: Instant) -> [CallOutput] {
        ifCall(callId) { session, out in session.videoRenegotiated(&out) }
    }

    /// Sends an application message (`sendMessage` envelope); needs `IN_PROGRESS`.
    public mutating func sendMessage(eventData: [AttachedData], now: Instant) throws(CallError) -> [CallOutput] {
        try withCall(nil) { (session, out) throws(CallError) in
            try session.send(ManageCallEnvelope(eventType: ManageCallEnvelope.EventType.sendMessage, data: eventData),
                             operation: "send a message", &out)
        }
    }

    /// Tells the other side this app minimized its call screen (`callMinimized`).
    public mutating func minimizeCall(eventData: [AttachedData] = [], now: Instant) throws(CallError) -> [CallOutput] {
        try withCall(nil) { (session, out) throws(CallError) in
            try session.send(ManageCallEnvelope(eventType: ManageCallEnvelope.EventType.callMinimized, data: eventData),
                             operation: "minimize the call", &out)
        }
    }

    /// Asks the other side's app to run an operation (`startOperation`,
    /// `operationName` first, then `eventData`); its camera pauses meanwhile.
    public mutating func startOperation(name: String, eventData: [AttachedData] = [],
                                        now: Instant) throws(CallError) -> [CallOutput] {
        try withCall(nil) { (session, out) throws(CallError) in
            let data = [AttachedData(dataName: "operationName", dataValue: name)] + eventData
            try session.send(ManageCallEnvelope(eventType: ManageCallEnvelope.EventType.startOperation, data: data),
                             operation: "start an operation", &out)
        }
    }

    /// Back to the video call: resumes the local camera if an operation paused it and
    /// sends `turnBackToVideoCall`, which resumes the other side's camera too.
    public mutating func turnBackToVideoCall(now: Instant) throws(CallError) -> [CallOutput] {
        try withCall(nil) { (session, out) throws(CallError) in try session.turnBackToVideoCall(&out) }
    }

    /// Asks the other side to change the video to `mode` (seen from this side).
    public mutating func setVideoMode(_ mode: VideoMode, now: Instant) throws(CallError) -> [CallOutput] {
        try withCall(nil) { (session, out) throws(CallError) in try session.setVideoMode(mode, now: now, &out) }
    }

    /// Accepts the other side's video request with `mode` (seen from this side; any
    /// direction, not only the one asked).
    public mutating func acceptVideo(mode: VideoMode, now: Instant) throws(CallError) -> [CallOutput] {
        try withCall(nil) { (session, out) throws(CallError) in try session.acceptVideo(mode: mode, now: now, &out) }
    }

    /// Denies the other side's video request.
    public mutating func denyVideo(now: Instant) throws(CallError) -> [CallOutput] {
        try withCall(nil) { (session, out) throws(CallError) in try session.denyVideo(&out) }
    }

    /// Puts the call on hold (`true`: every transceiver `inactive`) or resumes it.
    public mutating func setHold(_ onHold: Bool, now: Instant) throws(CallError) -> [CallOutput] {
        try withCall(nil) { (session, out) throws(CallError) in
            guard session.state == .inProgress else {
                throw .callNotInProgress(operation: onHold ? "hold" : "resume", state: session.state)
            }
            guard session.isOnHold != onHold else { return }
            session.isOnHold = onHold
            out.append(.action(onHold ? .hold(callId: session.callId) : .unhold(callId: session.callId)))
        }
    }

    /// Restarts ICE on the call in progress (W3C `restartICE()`, RFC 8445 §9): new credentials in
    /// a re-offer from this side, e.g. after the device moved to another network. Media goes on
    /// over the old pair until the new one is selected. Either side may do it (the automatic
    /// restarts while `reconnecting` come from the caller only, so the two never cross).
    public mutating func restartICE(now: Instant) throws(CallError) -> [CallOutput] {
        try withCall(nil) { (session, out) throws(CallError) in
            guard session.state == .inProgress else {
                throw .callNotInProgress(operation: "restart ICE", state: session.state)
            }
            out.append(.action(.restartICE(callId: session.callId)))
        }
    }

    /// Turns the local camera track off or on (the video direction is kept).
    public mutating func setCameraEnabled(_ enabled: Bool, now: Instant) throws(CallError) -> [CallOutput] {
        try withCall(nil) { (session, out) throws(CallError) in
            guard session.isAnswered else {
                throw .invalidCallState(operation: enabled ? "turn the camera on" : "turn the camera off",
                                        state: session.state)
            }
            guard session.isCameraEnabled != enabled else { return }
            session.isCameraEnabled = enabled
            out.append(.action(.setCameraTrackEnabled(callId: session.callId, enabled: enabled)))
        }
    }
}

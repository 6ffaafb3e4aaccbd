import TernSignaling
import TernCore

/// Video added, changed or removed mid-call, negotiated over the `manage-call`
/// channel before the driver renegotiates the session description:
///
/// ```
/// requester                                   answerer
/// setVideoMode(m) ── videoRequest(id, m) ───▶ videoRequested(m.mirrored)
///                                              acceptVideo(a) / denyVideo() / (no answer: timedOut)
/// videoRequestAnswered ◀── videoAnswer(id, a | denied | timedOut)
/// renegotiate(a.mirrored)                      prepareVideo(a)
/// … offer/answer by the driver, which then calls videoRenegotiated on both sides …
/// videoChannelsUpdated(a.mirrored)             videoChannelsUpdated(a)
/// ```
/// `videoMode` items are in the sender's own point of view. A request for
/// `disabled` (removing video) is accepted by the answering core itself. When both
/// sides ask at once, the caller's request wins: the callee abandons its own.
extension CallSession {
    /// Asks the other side for video in `mode` (seen from this side).
    mutating func setVideoMode(_ mode: VideoMode, now: Instant, _ out: inout [CallOutput]) throws(CallError) {
        if let pending = video.local { throw .videoRequestPending(requestId: pending.id) }
        video.counter += 1
        let id = "\(role == .caller ? "c" : "a")\(video.counter)"
        try send(ManageCallEnvelope(eventType: ManageCallEnvelope.EventType.videoRequest,
                                    data: [AttachedData(dataName: "requestId", dataValue: id),
                                           AttachedData(dataName: "videoMode", dataValue: mode.rawValue)]),
                 operation: "change the video mode", &out)
        video.local = .init(id: id, mode: mode, deadline: now + configuration.videoRequestTimeout)
    }

    /// Accepts the other side's request with a direction of this side's choice.
    mutating func acceptVideo(mode: VideoMode, now: Instant, _ out: inout [CallOutput]) throws(CallError) {
        guard let request = video.remote else { throw .noVideoRequest }
        try answerVideo(id: request.id, mode: mode, operation: "accept the video request", &out)
    }

    /// Denies the other side's request.
    mutating func denyVideo(_ out: inout [CallOutput]) throws(CallError) {
        guard let request = video.remote else { throw .noVideoRequest }
        try answerVideo(id: request.id, mode: nil, operation: "deny the video request", &out)
    }

    /// Sends `videoAnswer`; `mode` `nil` or `disabled` denies (unless removal was
    /// asked) with `result` = `denial` (`denied`, or `timedOut` when the app did not answer).
    private mutating func answerVideo(id: String, mode: VideoMode?, denial: String = "denied", operation: String,
                                      _ out: inout [CallOutput]) throws(CallError) {
        let accepted = mode.flatMap { $0 == .disabled && video.remote?.mode != .disabled ? nil : $0 }
        let item = accepted.map { AttachedData(dataName: "videoMode", dataValue: $0.rawValue) }
            ?? AttachedData(dataName: "result", dataValue: denial)
        try sendVideoAnswer(id: id, item, operation: operation, &out)
        video.remote = nil
        if let accepted {
            video.agreed = accepted
            out.append(.action(.prepareVideo(callId: callId, video: accepted)))
        }
    }

    private func sendVideoAnswer(id: String, _ item: AttachedData, operation: String,
                                 _ out: inout [CallOutput]) throws(CallError) {
        try send(ManageCallEnvelope(eventType: ManageCallEnvelope.EventType.videoAnswer,
                                    data: [AttachedData(dataName: "requestId", dataValue: id), item]),
                 operation: operation, &out)
    }

    mutating func receiveVideoRequest(_ envelope: ManageCallEnvelope, now: Instant,
                                      _ out: inout [CallOutput]) throws(ManageCallError) {
        let (id, mode) = try videoFields(envelope)
        guard let mode else { throw .missingData(eventType: envelope.eventType, dataName: "videoMode") }
        let mine = mode.mirrored
        if video.local != nil {
            if role == .caller {
                // Glare: the caller's request wins; refuse the callee's.
                try? sendVideoAnswer(id: id, AttachedData(dataName: "result", dataValue: "denied"),
                                     operation: "refuse a crossing video request", &out)
                return
            }
            video.local = nil
            out.append(.videoRequestAnswered(callId: callId, txCode: txCode, result: .denied))
        }
        // The answering side gives up a tenth earlier than the requester, so a late
        // answer does not cross the requester's timeout.
        let bound = configuration.videoRequestTimeout - configuration.videoRequestTimeout / 10
        video.remote = .init(id: id, mode: mine, deadline: now + bound)
        if mine == .disabled {
            // Removing video needs no consent.
            do { try answerVideo(id: id, mode: .disabled, operation: "remove video", &out) } catch { video.remote = nil }
            return
        }
        out.append(.videoRequested(callId: callId, txCode: txCode, mode: mine))
    }

    mutating func receiveVideoAnswer(_ envelope: ManageCallEnvelope, _ out: inout [CallOutput]) throws(ManageCallError) {
        let (id, mode) = try videoFields(envelope)
        guard let request = video.local, request.id == id else { return } // stale or abandoned
        video.local = nil
        guard let mode else {
            let timedOut = envelope.data.value(named: "result") == "timedOut"
            out.append(.videoRequestAnswered(callId: callId, txCode: txCode, result: timedOut ? .timedOut : .denied))
            return
        }
        let mine = mode.mirrored
        video.agreed = mine
        out.append(.videoRequestAnswered(callId: callId, txCode: txCode, result: .accepted(mine)))
        out.append(.action(.renegotiate(callId: callId, video: mine)))
    }

    private func videoFields(_ envelope: ManageCallEnvelope) throws(ManageCallError) -> (String, VideoMode?) {
        guard let id = envelope.data.value(named: "requestId") else {
            throw .missingData(eventType: envelope.eventType, dataName: "requestId")
        }
        guard let text = envelope.data.value(named: "videoMode") else { return (id, nil) }
        guard let mode = VideoMode(rawValue: text) else {
            throw .malformed("videoMode \"\(text)\" is not sendrecv, sendonly, recvonly or inactive")
        }
        return (id, mode)
    }

    /// The driver finished the offer/answer that applies the agreed direction.
    mutating func videoRenegotiated(_ out: inout [CallOutput]) {
        guard let agreed = video.agreed else { return }
        video.agreed = nil
        videoMode = agreed
        out.append(.videoChannelsUpdated(callId: callId, txCode: txCode, direction: agreed))
    }

    /// Video requests whose answer did not come in time.
    mutating func handleVideoTimeout(now: Instant, _ out: inout [CallOutput]) {
        if let request = video.local, now >= request.deadline {
            video.local = nil
            out.append(.videoRequestAnswered(callId: callId, txCode: txCode, result: .timedOut))
        }
        if let request = video.remote, now >= request.deadline {
            do {
                try answerVideo(id: request.id, mode: nil, denial: "timedOut", operation: "time out the video request", &out)
            } catch {
                video.remote = nil
            }
        }
    }
}

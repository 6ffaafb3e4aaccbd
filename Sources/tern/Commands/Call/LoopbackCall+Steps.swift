import TernSignaling
import TernCall
import TernPeer

/// The in-call steps of the loopback call; each one records whether it really happened.
extension LoopbackCall {
    /// `sendMessage` envelopes both ways, CALL_MINIMIZED, START_OPERATION (pauses the receiver's
    /// camera) and turnBackToVideoCall (resumes it), over the `manage-call` data channel.
    mutating func exchangeManageCallEvents(_ alice: CallParticipant, _ bob: CallParticipant) async {
        do {
            try await alice.agent.sendMessage(eventData: [AttachedData(dataName: "processName", dataValue: "CustOnboarding")])
            try await bob.agent.sendMessage(eventData: [AttachedData(dataName: "status", dataValue: "documentsReceived")])
            try await alice.agent.minimizeCall()
            try await bob.agent.startOperation(name: "START_OCR")
        } catch {
            steps.fail("manage-call", "sending failed: \(error)")
            return
        }
        func received(_ participant: CallParticipant, _ type: ManageCallEventType) -> Bool {
            participant.snapshot.manageEvents.contains { $0.type == type }
        }
        let delivered = await waitFor(seconds: 10) {
            received(bob, .messageReceived) && received(alice, .messageReceived)
                && received(bob, .callMinimized) && received(alice, .startOperation)
        }
        let callId = alice.snapshot.callId ?? ""
        let paused = await alice.agent.senders(callId: callId).video.map { !$0.isEnabled } ?? !options.video
        steps.check("manage-call", delivered && paused,
                    passed: "sendMessage both ways, CALL_MINIMIZED, START_OPERATION (alice's camera paused)",
                    failed: "events missing (bob: \(bob.snapshot.manageEvents.map(\.type.rawValue)), alice: \(alice.snapshot.manageEvents.map(\.type.rawValue)), camera paused: \(paused))")
        do { try await alice.agent.turnBackToVideoCall() } catch {
            steps.fail("turn-back", "\(error)")
            return
        }
        let resumed = await waitFor(seconds: 10) { received(bob, .turnBackToVideoCall) }
        let cameraOn = await alice.agent.senders(callId: callId).video.map(\.isEnabled) ?? true
        steps.check("turn-back", resumed && cameraOn, passed: "turnBackToVideoCall: alice's camera resumed, bob notified",
                    failed: "bob saw no TURN_BACK_TO_VIDEO_CALL or the camera stayed paused")
    }

    /// Removes video mid-call and adds it back (bob accepts both ways); frames flow again after.
    mutating func removeAndRestoreVideo(_ alice: CallParticipant, _ bob: CallParticipant) async {
        let framesBefore = bob.videoCounters.withLock { $0.count }
        do { try await alice.agent.setVideoMode(.disabled) } catch {
            steps.fail("video-remove", "\(error)")
            return
        }
        let removed = await waitFor(seconds: 10) {
            alice.snapshot.videoUpdates.contains(.disabled) && bob.snapshot.videoUpdates.contains(.disabled)
        }
        steps.check("video-remove", removed, passed: "video removed by renegotiation (both sides: inactive)",
                    failed: "no videoChannelsUpdated(inactive) on both sides")
        guard removed else { return }
        do { try await alice.agent.setVideoMode(.sendReceive) } catch {
            steps.fail("video-add", "\(error)")
            return
        }
        let restored = await waitFor(seconds: 10) {
            alice.snapshot.videoUpdates.last == .sendReceive && bob.snapshot.videoUpdates.last == .sendReceive
        }
        let flowing = await waitFor(seconds: 10) { bob.videoCounters.withLock { $0.count } > framesBefore + 10 }
        steps.check("video-add", restored && flowing, passed: "video added back (bob accepted sendrecv); frames flowing again",
                    failed: "video not restored (updates alice \(alice.snapshot.videoUpdates), bob \(bob.snapshot.videoUpdates); frames flowing: \(flowing))")
    }

    /// Each side hears the other's tone and decodes the other's video, in order.
    mutating func checkMedia(_ alice: CallParticipant, _ bob: CallParticipant) {
        if options.audio {
            for (listener, speaker) in [(bob, alice), (alice, bob)] {
                let heard = listener.detectedToneHz
                steps.check("audio-\(listener.name)", heard == speaker.toneHz,
                            passed: "\(listener.name) hears \(Int(speaker.toneHz)) Hz from \(speaker.name)",
                            failed: "\(listener.name) detected \(heard.map { "\(Int($0)) Hz" } ?? "no tone"), expected \(Int(speaker.toneHz)) Hz")
            }
        }
        if options.video {
            for participant in [bob, alice] {
                let counters = participant.videoCounters.withLock { $0 }
                // Counters must never go backwards: a lower counter means a late frame or a picture
                // decoded against a reference the receiver never got. An exact repeat is reported.
                let backwards = zip(counters, counters.dropFirst()).first { $0 > $1 }
                let repeats = zip(counters, counters.dropFirst()).filter { $0 == $1 }.count
                let repeatNote = repeats > 0 ? " (\(repeats) repeated)" : ""
                // Against what the other side handed to its transport (W3C framesSent): frames its
                // encoder skipped under rate control are not owed; a few may still be in flight.
                let sender = participant === bob ? alice : bob
                let sent = sender.snapshot.peer?.getStats().outbound(.video)?.framesSent ?? 0
                let decoded = participant.snapshot.tracks.filter { $0.info.kind == .video }.map(\.framesDecoded).reduce(0, +)
                let enough = sent > 0 && Double(decoded) >= 0.9 * Double(sent)
                steps.check("video-\(participant.name)", counters.count >= 10 && backwards == nil && enough,
                            passed: "\(participant.name) decoded \(decoded) of the \(sent) frames \(sender.name) sent, "
                                + "\(counters.count) test-pattern counters in order" + repeatNote,
                            failed: "\(participant.name) decoded \(decoded) of the \(sent) frames \(sender.name) sent "
                                + "(\(counters.count) readable)"
                                + (backwards.map { ", but counter \($0.1) came after \($0.0)" } ?? ""))
            }
        }
    }

    /// alice hangs up; both must end: alice by local hang-up, bob by remote hang-up.
    mutating func hangUp(_ alice: CallParticipant, _ bob: CallParticipant) async {
        guard alice.snapshot.callStates.last != "ENDED" else {
            steps.fail("hang-up", "the call had already ended: \(alice.snapshot.endReason ?? "?")")
            return
        }
        do { try await alice.agent.hangUp() } catch {
            steps.fail("hang-up", "\(error)")
            return
        }
        let ended = await waitFor(seconds: 10) {
            alice.snapshot.callStates.last == "ENDED" && bob.snapshot.callStates.last == "ENDED"
        }
        steps.check("hang-up", ended, passed: "ENDED on both sides (alice \(alice.snapshot.endReason ?? "?"), bob \(bob.snapshot.endReason ?? "?"))",
                    failed: "not ENDED on both sides")
        await alice.agent.stop()
        await bob.agent.stop()
    }
}

import Foundation
import Testing
import TernCall
import TernSignaling
import TernCore

/// In-call events between two cores over the relayed `manage-call` channel.
@Suite("manage-call scenarios")
struct ManageCallScenarioTests {
    @Test("sendMessage goes out byte-exact and surfaces as MESSAGE_RECEIVED with its data")
    func sendMessage() throws {
        let relay = CallRelay.pair()
        try relay.establish()
        #expect(relay.clients["bob"]?.currentCall?.lastEvent == .noEvent)
        let data = [AttachedData(dataName: "processName", dataValue: "CustOnboarding")]
        let out = try relay.on("alice") { try $0.sendMessage(eventData: data, now: relay.now) }
        #expect(out == [.sendManageCall(callId: "c1", bytes: Array(ManageCallEnvelopeTests.golden.utf8))])
        #expect(relay.events("bob") == [ManageCallEvent(type: .messageReceived, data: data)])
        #expect(relay.clients["bob"]?.currentCall?.lastEvent == .messageReceived)
    }

    @Test("sendMessage fails clearly when no call is in progress")
    func sendMessageNeedsInProgress() throws {
        let relay = CallRelay.pair()
        #expect(throws: CallError.noSuchCall(callId: nil)) {
            try relay.on("alice") { try $0.sendMessage(eventData: [], now: relay.now) }
        }
        try relay.call("alice", to: "bob")
        #expect(throws: CallError.callNotInProgress(operation: "send a message", state: .ringing)) {
            try relay.on("alice") { try $0.sendMessage(eventData: [], now: relay.now) }
        }
    }

    @Test("an envelope over 64 KiB is refused before sending")
    func sendTooLarge() throws {
        let relay = CallRelay.pair()
        try relay.establish()
        let big = [AttachedData(dataName: "blob", dataValue: String(repeating: "a", count: 65_536))]
        let size = ManageCallEnvelope(eventType: "sendMessage", data: big).encoded().count
        #expect(throws: CallError.envelopeTooLarge(size: size, limit: 65_536)) {
            try relay.on("alice") { try $0.sendMessage(eventData: big, now: relay.now) }
        }
        #expect(relay.outputs["alice"]?.contains { if case .sendManageCall = $0 { true } else { false } } == false)
    }

    @Test("START_OPERATION pauses the receiver's camera; turnBackToVideoCall resumes it and tells the other side")
    func operationPausesCamera() throws {
        let relay = CallRelay.pair()
        try relay.establish()
        try relay.on("alice") {
            try $0.startOperation(name: "START_OCR", eventData: [AttachedData(dataName: "document", dataValue: "id-card")],
                                  now: relay.now)
        }
        #expect(relay.events("bob") == [ManageCallEvent(type: .startOperation, data: [
            AttachedData(dataName: "operationName", dataValue: "START_OCR"), AttachedData(dataName: "document", dataValue: "id-card"),
        ])])
        #expect(relay.actions("bob").last == .pauseCamera(callId: "c1"))
        #expect(relay.clients["bob"]?.currentCall?.isCameraPausedForOperation == true)

        try relay.on("bob") { try $0.turnBackToVideoCall(now: relay.now) }
        #expect(relay.actions("bob").last == .resumeCamera(callId: "c1"))
        #expect(relay.events("alice") == [ManageCallEvent(type: .turnBackToVideoCall)])
        #expect(!relay.actions("alice").contains(.resumeCamera(callId: "c1")), "alice's camera was never paused")
        #expect(relay.clients["bob"]?.currentCall?.lastEvent == .turnBackToVideoCall)
    }

    @Test("the other side can order the return to the video call")
    func remoteOrdersTurnBack() throws {
        let relay = CallRelay.pair()
        try relay.establish()
        try relay.on("alice") { try $0.startOperation(name: "START_OCR", now: relay.now) }
        try relay.on("alice") { try $0.turnBackToVideoCall(now: relay.now) }
        #expect(relay.events("bob").map(\.type) == [.startOperation, .turnBackToVideoCall])
        #expect(relay.actions("bob").suffix(2) == [.pauseCamera(callId: "c1"), .resumeCamera(callId: "c1")])
        #expect(relay.clients["bob"]?.currentCall?.isCameraPausedForOperation == false)
    }

    @Test("CALL_MINIMIZED surfaces with its data")
    func minimized() throws {
        let relay = CallRelay.pair()
        try relay.establish()
        let out = try relay.on("bob") { try $0.minimizeCall(now: relay.now) }
        #expect(out == [.sendManageCall(callId: "c1", bytes: Array(#"{"eventType":"callMinimized","manageCallEventData":[]}"#.utf8))])
        #expect(relay.events("alice") == [ManageCallEvent(type: .callMinimized)])
    }

    @Test("malformed, unknown, incomplete and oversized envelopes become error events; the call goes on")
    func badEnvelopesKeepTheCall() throws {
        let relay = CallRelay.pair()
        try relay.establish()
        let inputs: [[UInt8]] = [
            Array("not json".utf8),
            Array(#"{"eventType":"selfDestruct","manageCallEventData":[]}"#.utf8),
            Array(#"{"eventType":"startOperation","manageCallEventData":[]}"#.utf8),
            Array(repeating: UInt8(ascii: " "), count: 65_537),
            [0xFF, 0xFE, 0x00],
        ]
        for bytes in inputs {
            try relay.on("bob") { $0.receiveManageCall(callId: "c1", bytes: bytes, now: relay.now) }
        }
        let errors = relay.manageCallErrors("bob")
        #expect(errors.count == 5)
        #expect(errors[1] == .unknownEventType("selfDestruct"))
        #expect(errors[2] == .missingData(eventType: "startOperation", dataName: "operationName"))
        #expect(errors[3] == .tooLarge(size: 65_537, limit: 65_536))
        #expect(relay.state("bob") == .inProgress)
        #expect(!relay.actions("bob").contains(.pauseCamera(callId: "c1")))

        try relay.on("alice") { try $0.sendMessage(eventData: [AttachedData(dataName: "k", dataValue: "v")], now: relay.now) }
        #expect(relay.events("bob") == [ManageCallEvent(type: .messageReceived, data: [AttachedData(dataName: "k", dataValue: "v")])])
    }

    @Test("hold, resume and camera off/on are driver actions")
    func holdAndCamera() throws {
        let relay = CallRelay.pair()
        try relay.establish()
        try relay.on("alice") { try $0.setHold(true, now: relay.now) }
        try relay.on("alice") { try $0.setHold(true, now: relay.now) }
        try relay.on("alice") { try $0.setHold(false, now: relay.now) }
        try relay.on("alice") { try $0.setCameraEnabled(false, now: relay.now) }
        try relay.on("alice") { try $0.setCameraEnabled(true, now: relay.now) }
        #expect(relay.actions("alice").suffix(4) == [
            .hold(callId: "c1"), .unhold(callId: "c1"),
            .setCameraTrackEnabled(callId: "c1", enabled: false), .setCameraTrackEnabled(callId: "c1", enabled: true),
        ])
    }

    @Test("the envelopes shown in Docs/MANAGE-CALL.md are the bytes the cores send")
    func documentedBytes() throws {
        func sentText(_ out: [CallOutput]) -> [String] {
            out.compactMap { if case .sendManageCall(_, let bytes) = $0 { String(decoding: bytes, as: UTF8.self) } else { nil } }
        }
        let relay = CallRelay.pair()
        try relay.establish(media: .audioOnly)
        var texts: [String] = []
        texts += sentText(try relay.on("alice") { try $0.minimizeCall(now: relay.now) })
        texts += sentText(try relay.on("alice") { try $0.startOperation(name: "START_OCR", now: relay.now) })
        texts += sentText(try relay.on("bob") { try $0.turnBackToVideoCall(now: relay.now) })
        texts += sentText(try relay.on("alice") { try $0.setVideoMode(.sendReceive, now: relay.now) })
        texts += sentText(try relay.on("bob") { try $0.acceptVideo(mode: .receiveOnly, now: relay.now) })
        texts += sentText(try relay.on("alice") { try $0.setVideoMode(.sendReceive, now: relay.now) })
        texts += sentText(try relay.on("bob") { try $0.denyVideo(now: relay.now) })
        #expect(texts == [
            #"{"eventType":"callMinimized","manageCallEventData":[]}"#,
            #"{"eventType":"startOperation","manageCallEventData":[{"dataName":"operationName","dataValue":"START_OCR"}]}"#,
            #"{"eventType":"turnBackToVideoCall","manageCallEventData":[]}"#,
            #"{"eventType":"videoRequest","manageCallEventData":[{"dataName":"requestId","dataValue":"c1"},{"dataName":"videoMode","dataValue":"sendrecv"}]}"#,
            #"{"eventType":"videoAnswer","manageCallEventData":[{"dataName":"requestId","dataValue":"c1"},{"dataName":"videoMode","dataValue":"recvonly"}]}"#,
            #"{"eventType":"videoRequest","manageCallEventData":[{"dataName":"requestId","dataValue":"c2"},{"dataName":"videoMode","dataValue":"sendrecv"}]}"#,
            #"{"eventType":"videoAnswer","manageCallEventData":[{"dataName":"requestId","dataValue":"c2"},{"dataName":"result","dataValue":"denied"}]}"#,
        ])
        let doc = try String(contentsOfFile: #filePath.replacingOccurrences(of: "Tests/TernCallTests/ManageCallScenarioTests.swift",
                                                                          with: "Docs/MANAGE-CALL.md"), encoding: .utf8)
        for text in texts where !text.contains("c2") {
            #expect(doc.contains(text), "Docs/MANAGE-CALL.md shows \(text)")
        }
    }
}

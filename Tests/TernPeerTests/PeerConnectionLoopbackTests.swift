import Foundation
import Synchronization
import Testing
import TernCore
import TernMedia
import TernPeer
import TernSCTP
import TernSDP

@Suite("Peer connection on loopback", .serialized)
struct PeerConnectionLoopbackTests {
    @Test("two peers connect over ICE and DTLS and exchange data-channel messages both ways")
    func dataChannelMessagesFlowBothWays() async throws {
        let pair = try PeerPair()
        defer { pair.close() }
        let calleeChannel = Mutex<DataChannel?>(nil)
        let tasks = pair.startTrickle(onCallee: { event in
            if case let .dataChannel(channel) = event { calleeChannel.withLock { $0 = channel } }
        })
        defer { tasks.forEach { $0.cancel() } }

        let channel = try pair.caller.createDataChannel("chat")
        try await pair.negotiate()

        #expect(await eventually { channel.readyState == .open }, "\(pair.diagnosis)")
        #expect(await eventually { calleeChannel.withLock { $0 } != nil })
        let remote = try #require(calleeChannel.withLock { $0 })
        #expect(remote.label == "chat")
        #expect(await eventually { remote.readyState == .open })

        let received = Mutex<[DataChannelMessage]>([])
        let echoed = Mutex<[DataChannelMessage]>([])
        let calleeReader = Task {
            for await event in remote.events {
                if case let .message(message) = event {
                    received.withLock { $0.append(message) }
                    try? remote.send(message)  // echo
                }
            }
        }
        let callerReader = Task {
            for await event in channel.events {
                if case let .message(message) = event { echoed.withLock { $0.append(message) } }
            }
        }
        defer { calleeReader.cancel(); callerReader.cancel() }

        try channel.send("hello")
        try channel.send([0, 1, 2, 255])
        try channel.send("")
        let big = [UInt8](repeating: 7, count: 200_000)
        try channel.send(big)
        try channel.send(Data([9, 8, 7]))  // W3C send(ArrayBuffer)
        try channel.send(Data())           // empty binary: PPID 57

        #expect(await eventually { echoed.withLock { $0.count } == 6 })
        #expect(received.withLock { $0 } == [.string("hello"), .binary([0, 1, 2, 255]), .string(""), .binary(big),
                                             .binary([9, 8, 7]), .binary([])])
        #expect(echoed.withLock { $0 } == received.withLock { $0 })

        #expect(pair.caller.connectionState == .connected)
        let info = try #require(pair.caller.dtlsConnectionInfo)
        #expect(info.role == .server)  // the answerer is `active` (DTLS client) by default
        let pairInfo = try #require(pair.caller.selectedCandidatePair)
        #expect(pairInfo.local.address == "127.0.0.1")

        // W3C transport counters: the 200 KB went each way, and what one side received the
        // other sent (on loopback nothing is lost, but the last datagrams may be in flight).
        let callerTransport = pair.caller.getStats().transport, calleeTransport = pair.callee.getStats().transport
        #expect((callerTransport.bytesSent ?? 0) > 200_000 && (calleeTransport.bytesSent ?? 0) > 200_000,
                "sent \(callerTransport.bytesSent ?? 0) / \(calleeTransport.bytesSent ?? 0) bytes")
        #expect(await eventually {
            let caller = pair.caller.getStats().transport, callee = pair.callee.getStats().transport
            return caller.packetsReceived == callee.packetsSent && caller.bytesReceived == callee.bytesSent
                && callee.packetsReceived == caller.packetsSent && callee.bytesReceived == caller.bytesSent
        }, "caller \(pair.caller.getStats().transport), callee \(pair.callee.getStats().transport)")
    }

    @Test("a message larger than the peer's max-message-size is refused at send, nothing truncated")
    func oversizedMessageIsRefused() async throws {
        var small = PeerConfiguration.loopback
        small.maxMessageSize = 1024
        let pair = PeerPair(caller: try PeerConnection(configuration: .loopback),
                            callee: try PeerConnection(configuration: small))
        defer { pair.close() }
        let tasks = pair.startTrickle()
        defer { tasks.forEach { $0.cancel() } }
        let channel = try pair.caller.createDataChannel("limited")
        try await pair.negotiate()
        #expect(await eventually { channel.readyState == .open },
                "\(pair.diagnosis)")
        #expect(throws: PeerConnectionError.self) { try channel.send([UInt8](repeating: 1, count: 1025)) }
        try channel.send([UInt8](repeating: 1, count: 1024))
    }

    @Test("audio: the callee detects the caller's tone and video frames decode with counters in order")
    func audioToneAndVideoFramesArrive() async throws {
        let pair = try PeerPair()
        defer { pair.close() }
        let tracks = Mutex<[RemoteTrack]>([])
        let tasks = pair.startTrickle(onCallee: { event in
            if case let .track(track) = event { tracks.withLock { $0.append(track) } }
        })
        defer { tasks.forEach { $0.cancel() } }

        let audio = try pair.caller.addTransceiver(.audio, direction: .sendonly)
        let video = try pair.caller.addTransceiver(.video, direction: .sendonly)
        try await pair.negotiate()
        #expect(await eventually { pair.caller.connectionState == .connected && pair.callee.connectionState == .connected },
                "\(pair.diagnosis)")

        var tone = SineToneSource(frequency: 660)
        var pattern = TestPatternSource(width: 320, height: 240)
        for _ in 0..<50 {  // one second of audio, 50 video frames
            try audio.sender.send(audio: tone.nextFrame())
            try video.sender.send(video: pattern.nextFrame())
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(await eventually { tracks.withLock { $0.count } == 2 })
        let remote = tracks.withLock { $0 }
        let audioTrack = try #require(remote.first { $0.info.kind == .audio })
        let videoTrack = try #require(remote.first { $0.info.kind == .video })
        #expect(await eventually { videoTrack.framesDecoded >= 40 && audioTrack.framesDecoded >= 40 })

        let collectAudio = Task {
            var pcm: [Int16] = []
            for await frame in audioTrack.frames {
                if case let .audio(samples) = frame { pcm += samples }
                if pcm.count >= 48_000 / 2 { break }
            }
            return pcm
        }
        let collectVideo = Task {
            var counters: [UInt16] = []
            for await frame in videoTrack.frames {
                if case let .video(picture) = frame, let counter = TestPatternReader.counter(in: picture) { counters.append(counter) }
                if counters.count >= 30 { break }
            }
            return counters
        }
        let pcm = await collectAudio.value
        let counters = await collectVideo.value
        let detected = ToneDetector.strongest(of: [440, 660, 880], in: Array(pcm.suffix(24_000)))
        #expect(detected == 660)
        #expect(counters.count >= 30)
        #expect(counters == counters.sorted())

        let stats = pair.callee.getStats()
        #expect(stats.inboundRTP.count == 2)
        #expect(stats.inboundRTP.allSatisfy { $0.counters.packetsReceived > 0 })
        // The sender reports its bandwidth estimate and what its encoders are set to (a path
        // with room: the configured rates).
        let sent = pair.caller.getStats()
        #expect((sent.candidatePair?.availableOutgoingBitrate ?? 0) > 0)
        // With it, the estimate's state: a loopback path queues nothing, the start probes ran.
        #expect(sent.candidatePair?.queueDelayMs.map { $0 < 5 } ?? false)
        #expect((sent.candidatePair?.probeClustersStarted ?? 0) >= 2)
        #expect(sent.candidatePair?.bytesInFlight != nil)
        // Audio keeps its configured rate from the 300 kbit/s start; video starts lower and
        // follows the probes up to its ceiling, by default libwebrtc's for the picture's size:
        // 600 kbit/s at 320x240 (how fast is BandwidthEstimatorTests').
        #expect(sent.outboundRTP.first { $0.kind == "audio" }?.targetBitrate == 32_000)
        let videoTarget = try #require(sent.outboundRTP.first { $0.kind == "video" }?.targetBitrate)
        #expect((50_000...600_000).contains(videoTarget))
        #expect(sent.transport.rtpPacketsDroppedByPacer == 0)
        let videoOut = try #require(sent.outboundRTP.first { $0.kind == "video" })
        #expect(videoOut.frameWidth == 320 && videoOut.frameHeight == 240)
        // The call starts at the probing start rate (300 kbit/s): limited by bandwidth until the
        // probes lift it; only bandwidth ever limits it, and the durations cover the call.
        #expect(["none", "bandwidth"].contains(videoOut.qualityLimitationReason ?? "-"))
        let limited = videoOut.qualityLimitationDurations ?? [:]
        #expect(limited["cpu"] == 0 && limited["other"] == 0 && limited.values.reduce(0, +) > 0.5)
        let videoIn = try #require(stats.inboundRTP.first { $0.kind == "video" })
        #expect(videoIn.freezeCount != nil && videoIn.totalFreezesDuration != nil && videoIn.framesPerSecond != nil)
    }
}

import ArgumentParser
import Foundation
import TernCall
import TernICE
import TernMedia
import TernPeer
import TernSCTP
import TernSignaling
import TernSignalingClient
import TernTrace

/// `tern peer`: a headless peer on a signaling server (protocol v1) — what interop tests and
/// users' own test rigs drive.
struct PeerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "peer",
        abstract: "A headless peer: place or answer one call through a signaling server (protocol v1) and report on it.",
        discussion: """
            Registers as --user on --signal, then either calls --call OTHER or answers the first \
            incoming call (--answer). It sends a tone (440 Hz as caller, 660 Hz as answerer) and a \
            test-pattern video when asked, echoes every data-channel message back with --echo, and \
            as caller sends --echo-count numbered messages on its reliable channel 'tern-data' and \
            checks they all come back once and in order. Prints events (JSON lines with --json) and \
            a final summary; exit status 0 only if the call went through IN_PROGRESS, every check \
            passed and the call ended normally. SIGINT or SIGTERM hangs up and prints the summary. \
            See Docs/PEER.md.
            """)

    @Option(help: ArgumentHelp("Signaling server URL (protocol v1), e.g. ws://127.0.0.1:8787/v1 or wss://host/v1; several, comma-separated, are tried in turn when the connection drops (the call is resumed on the next).", valueName: "url[,url...]"))
    var signal: String

    /// `--signal` split at commas.
    var signalURLs: [String] { signal.split(separator: ",").map { String($0.trimmingCharacters(in: .whitespaces)) } }

    @Option(help: ArgumentHelp("For a wss:// --signal: trust this PEM CA certificate instead of the system's roots.", valueName: "file"))
    var signalCA: String?

    @Option(help: ArgumentHelp("The user id to register as.", valueName: "name"))
    var user: String

    @Option(help: ArgumentHelp("Register token (a JWT from the application's backend or tern signal token, when the server has a secret).", valueName: "token"))
    var token: String = ""

    @Option(help: ArgumentHelp("Read the register token from the first line of this file (or set TERN_TOKEN): a --token on the command line is visible to every local user.", valueName: "file"))
    var tokenFile: String?

    @Option(name: .customLong("call"), help: ArgumentHelp("Call this user.", valueName: "other"))
    var callee: String?

    @Flag(help: "Answer the first incoming call.")
    var answer = false

    @Flag(help: "Send a tone (and expect audio back).")
    var audio = false

    @Option(help: ArgumentHelp("With --audio: the tone the other side sends, in Hz; the check fails unless the tone heard is within 2 % of it (without it, any tone that dominates the audio passes).", valueName: "hz"))
    var expectTone: Double?

    @Flag(help: "Send test-pattern video (and expect frames back).")
    var video = false

    @Option(help: ArgumentHelp("The test pattern's size, WxH (even, up to 1920x1080; default 320x240).", valueName: "WxH"))
    var videoSize: String?

    @Option(help: ArgumentHelp("Noise on the test pattern, ±N luma levels changing every frame, as a camera's sensor adds (0-64, default 0). Without it VP8 needs ~800 kbit/s at 640x480 at most; with 4 it uses whatever it is allowed.", valueName: "N"))
    var videoGrain = 0

    @Option(help: ArgumentHelp("The most VP8 may send, kbit/s (default: by the picture size, as libwebrtc: 600 up to 320x240, 1700 up to 640x480, 2000 up to 960x540, 2500 above); the bandwidth estimate takes it lower on a narrower path, never higher.", valueName: "kbps"))
    var videoBitrate: Int?

    @Flag(help: "Use data channels (the caller opens 'tern-data').")
    var data = false

    @Flag(help: "Echo every data-channel message back on the channel it came on.")
    var echo = false

    @Option(help: ArgumentHelp("Caller: send N numbered messages on 'tern-data' and check the echoes (implies --data).", valueName: "n"))
    var echoCount: Int?

    @Option(help: ArgumentHelp("Caller: milliseconds between two echo messages (default: as fast as the channel takes them).", valueName: "ms"))
    var echoIntervalMs: Int?

    @Option(help: ArgumentHelp("Caller: pad each echo message to this many bytes (default: just its header, 'tern-echo N').", valueName: "bytes"))
    var echoSize: Int?

    @Flag(help: "Send the echo messages as binary instead of text.")
    var echoBinary = false

    @Option(help: ArgumentHelp("Echo message sizes taken in turn, comma-separated (e.g. 1,16,1000,65536; a message is never shorter than its header).", valueName: "list"))
    var echoSizes: String?

    @Flag(help: "Alternate text and binary echo messages (text first).")
    var echoAlternate = false

    @Flag(help: "Send the echo run's last message at the remote's max-message-size (from its SDP).")
    var echoMaxMessage = false

    @Flag(help: "Open 'tern-data' unordered (W3C ordered: false); the echoes may come back in any order.")
    var unordered = false

    @Option(help: ArgumentHelp("Open 'tern-data' partially reliable (W3C maxRetransmits); echoes may be missing, never doubled or altered.", valueName: "n"))
    var maxRetransmits: UInt16?

    @Option(help: ArgumentHelp("Answerer: reject the first incoming call (declined or busy) instead of accepting it.", valueName: "reason"))
    var reject: String?

    @Option(help: ArgumentHelp("Answerer: let the call ring this many seconds before accepting it.", valueName: "seconds"))
    var answerDelay: Double?

    @Option(help: ArgumentHelp("Caller: cancel the invite if it is still unanswered after this many seconds.", valueName: "seconds"))
    var cancelAfter: Double?

    @Option(help: ArgumentHelp("Once the call is up, send one sendMessage envelope on manage-call with this item (repeatable, in order).", valueName: "name=value"))
    var sendMessage: [String] = []

    @Flag(help: "Record every ICE candidate pair's checks in the trace (turns libnice's debug log on for this process; costs CPU on a busy call).")
    var tracePairChecks = false

    @Option(help: ArgumentHelp("Caller: attach this key-value item to the invite (repeatable, in order); the callee's summary lists what arrived.", valueName: "name=value"))
    var attach: [String] = []

    @OptionGroup var ice: ICEOptions

    @Option(help: ArgumentHelp("Caller: seconds the call lasts once up (default 5; with --echo-count and no media, just the echo run). Answerer: hang up after this long (default: when the caller hangs up).", valueName: "seconds"))
    var duration: Double?

    @Option(help: ArgumentHelp("Answerer: seconds to wait for an incoming call.", valueName: "seconds"))
    var wait: Double = 60

    @Flag(help: "One JSON object per line; the last line is the summary.")
    var json = false

    @OptionGroup var trace: TraceOptions

    @Option(help: ArgumentHelp("This many seconds into the call, ask the other side to add video both ways (setVideoMode(.sendReceive)), check frames decode, then remove it again (.disabled) and check frames stop.", valueName: "seconds"))
    var requestVideoAfter: Double?

    @Option(help: ArgumentHelp("This many seconds into the call, restart ICE from this side (a re-offer with new credentials); checks media goes on.", valueName: "seconds"))
    var restartIceAfter: Double?

    @Flag(help: "A group call: with --call a,b,... invite them all into one call (a full mesh), or with --answer join the group call that rings; tone and video go to every member, and each member's are checked.")
    var group = false

    @Option(help: ArgumentHelp("With --group: once this member's legs are up, invite these users into the running call.", valueName: "a,b,..."))
    var inviteMore: String?

    @Option(help: ArgumentHelp("With --group: cancel the invitation of this user as soon as it rings (repeatable); the call goes on.", valueName: "user"))
    var cancelInvite: [String] = []

    @Option(help: ArgumentHelp("Caller (and --invite-more): seconds each invitation rings before it times out (default 30).", valueName: "seconds"))
    var ringTimeout: Double?

    @Flag(help: "Caller: with --call a,b,... ring every one of them and let the first to accept have a one-to-one call (the others see answeredElsewhere).")
    var firstAnswer = false

    @Option(help: ArgumentHelp("The tone this peer sends, Hz (default 440 as caller, 660 as answerer).", valueName: "hz"))
    var tone: Double?

    @Flag(help: "Answerer: stay offline (unregistered) until a push arrives on --push-listen, then check it, connect, register and answer the pending invite: the rig for tern signal --push-webhook.")
    var offlineUntilPush = false

    @Option(help: ArgumentHelp("With --offline-until-push: where the push webhook is received, HOST:PORT (port 0: any; the URL is logged as event pushListening).", valueName: "host:port"))
    var pushListen = "127.0.0.1:0"

    @Option(help: ArgumentHelp("With --offline-until-push: the push secret, from the first line of this file (or set TERN_PUSH_SECRET).", valueName: "file"))
    var pushSecretFile: String?

    func validate() throws {
        if offlineUntilPush {
            guard answer else { throw ValidationError("--offline-until-push is for the answerer (--answer)") }
            guard parsedPushListen() != nil else { throw ValidationError("--push-listen must be HOST:PORT, e.g. 127.0.0.1:9090") }
        }
        guard (callee != nil) != answer else { throw ValidationError("give exactly one of --call OTHER or --answer") }
        if group {
            guard echoCount == nil, cancelAfter == nil, requestVideoAfter == nil, restartIceAfter == nil, !offlineUntilPush,
                  !trace.anyGiven, !firstAnswer
            else {
                throw ValidationError("--group takes --call a,b or --answer with media options, --reject, --answer-delay, "
                                      + "--invite-more, --cancel-invite, --ring-timeout and --duration only")
            }
        } else if inviteMore != nil || !cancelInvite.isEmpty {
            throw ValidationError("--invite-more and --cancel-invite are for a group call (--group)")
        }
        if firstAnswer {
            guard let callee, callee.contains(",") else { throw ValidationError("--first-answer rings several users: --call a,b,...") }
        } else if !group, callee?.contains(",") == true {
            throw ValidationError("--call takes one user; several need --group or --first-answer")
        }
        if let ringTimeout {
            guard callee != nil || inviteMore != nil else { throw ValidationError("--ring-timeout is for the caller or --invite-more") }
            guard (1...600).contains(ringTimeout) else { throw ValidationError("--ring-timeout must be between 1 and 600 seconds") }
        }
        if let tone { guard (50...4000).contains(tone) else { throw ValidationError("--tone must be 50-4000 Hz") } }
        guard attach.isEmpty || callee != nil else { throw ValidationError("--attach is for the caller (--call OTHER)") }
        guard !signalURLs.isEmpty, signalURLs.allSatisfy({ $0.hasPrefix("ws://") || $0.hasPrefix("wss://") }) else {
            throw ValidationError("--signal must be ws:// or wss:// URLs, comma-separated, e.g. ws://127.0.0.1:8787/v1")
        }
        guard !user.isEmpty, user.utf8.count <= 128 else { throw ValidationError("--user must be 1-128 bytes") }
        if let echoCount {
            guard echoCount > 0, echoCount <= 10_000_000 else { throw ValidationError("--echo-count must be between 1 and 10000000") }
        }
        if let echoIntervalMs {
            guard echoCount != nil else { throw ValidationError("--echo-interval-ms needs --echo-count") }
            guard echoIntervalMs >= 0, echoIntervalMs <= 60_000 else { throw ValidationError("--echo-interval-ms must be 0...60000") }
        }
        if echoSize != nil || echoBinary || echoSizes != nil || echoAlternate || echoMaxMessage || unordered || maxRetransmits != nil {
            guard echoCount != nil else {
                throw ValidationError("--echo-size, --echo-sizes, --echo-binary, --echo-alternate, --echo-max-message, --unordered and --max-retransmits need --echo-count")
            }
        }
        _ = try parsedEchoSizes()
        _ = try parsedVideoSize()
        if let reject {
            guard answer else { throw ValidationError("--reject is for the answerer (--answer)") }
            guard RejectReason(rawValue: reject) != nil, reject != "unavailable" else { throw ValidationError("--reject must be declined or busy") }
        }
        if let answerDelay {
            guard answer, reject == nil else { throw ValidationError("--answer-delay is for an answerer that accepts (--answer, no --reject)") }
            guard answerDelay > 0, answerDelay <= 600 else { throw ValidationError("--answer-delay must be between 0 and 600 seconds") }
        }
        if let cancelAfter {
            guard callee != nil else { throw ValidationError("--cancel-after is for the caller (--call)") }
            guard cancelAfter > 0, cancelAfter <= 30 else { throw ValidationError("--cancel-after must be between 0 and 30 seconds (the ring time)") }
        }
        _ = try parsedItems(sendMessage, flag: "--send-message")
        _ = try parsedItems(attach, flag: "--attach")
        if let echoSize {
            guard echoSize > 0, echoSize <= 16 << 20 else { throw ValidationError("--echo-size must be between 1 and 16777216 bytes") }
        }
        if let duration {
            guard duration > 0, duration <= 86_400 else { throw ValidationError("--duration must be between 0 and 86400 seconds") }
        }
        guard wait > 0, wait <= 86_400 else { throw ValidationError("--wait must be between 0 and 86400 seconds") }
        for (name, value) in [("--request-video-after", requestVideoAfter), ("--restart-ice-after", restartIceAfter)] {
            if let value, !(0...3600).contains(value) { throw ValidationError("\(name) must be between 0 and 3600 seconds") }
        }
    }

    /// `--echo-sizes` as numbers (empty when not given).
    private func parsedEchoSizes() throws -> [Int] {
        guard let echoSizes else { return [] }
        let sizes = echoSizes.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !sizes.isEmpty, sizes.count == echoSizes.split(separator: ",").count, sizes.allSatisfy({ $0 > 0 && $0 <= 16 << 20 }) else {
            throw ValidationError("--echo-sizes must be comma-separated sizes between 1 and 16777216 bytes")
        }
        return sizes
    }

    /// `--send-message` and `--attach` items.
    private func parsedItems(_ items: [String], flag: String) throws -> [AttachedData] {
        try items.map { item in
            guard let equals = item.firstIndex(of: "="), equals != item.startIndex else {
                throw ValidationError("\(flag) must be name=value, got '\(item)'")
            }
            return AttachedData(dataName: String(item[..<equals]), dataValue: String(item[item.index(after: equals)...]))
        }
    }

    /// Adds `manageCall.received` (the manage-call events received, in order) and, on the
    /// answering side, `attachedData` (the invite's items, in order) to the summary.
    static func withManageCall(_ summary: JSONValue, events: [ManageCallEvent], attachedData: [AttachedData]?) -> JSONValue {
        guard case var .object(fields) = summary else { return summary }
        if let attachedData {
            fields["attachedData"] = .array(attachedData.map { .object(["name": .string($0.dataName), "value": .string($0.dataValue)]) })
        }
        let received: [JSONValue] = events.map { event in
            .object(["eventType": .string(event.type.rawValue),
                     "data": .array(event.data.map { .object(["dataName": .string($0.dataName), "dataValue": .string($0.dataValue)]) })])
        }
        fields["manageCall"] = .object(["received": .array(received)])
        return .object(fields)
    }

    private var ringTimeoutDuration: Duration { .milliseconds(Int((ringTimeout ?? 30) * 1000)) }

    /// A comma-separated list of users (empty for nil).
    private static func users(_ list: String?) -> [String] {
        (list ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    func parsedPushListen() -> (host: String, port: Int)? {
        guard let colon = pushListen.lastIndex(of: ":"), let port = Int(pushListen[pushListen.index(after: colon)...]),
              (0...65535).contains(port), colon != pushListen.startIndex else { return nil }
        return (String(pushListen[..<colon]), port)
    }

    func parsedVideoSize() throws -> MediaPump.VideoSize {
        guard let videoSize else { return .default }
        guard let size = MediaPump.VideoSize(parsing: videoSize) else {
            throw ValidationError("--video-size must be WxH with even numbers, 16-1920 wide and 16-1080 high (e.g. 640x480)")
        }
        return size
    }

    private func pushWait() throws -> PeerSession.PushWait? {
        guard offlineUntilPush, let listen = parsedPushListen() else { return nil }
        guard let secret = try SecretInput.resolve(option: nil, file: pushSecretFile, environment: "TERN_PUSH_SECRET") else {
            throw ValidationError("--offline-until-push checks the push signature: give --push-secret-file or TERN_PUSH_SECRET")
        }
        return PeerSession.PushWait(host: listen.host, port: listen.port, secret: secret)
    }

    func run() async throws {
        var peerConfiguration = PeerConfiguration()
        peerConfiguration.iceServers = try ice.servers()
        peerConfiguration.iceTransportPolicy = ice.transportPolicy
        peerConfiguration.ice.allowedAddresses = ice.iceAddresses
        peerConfiguration.ice.tracePairChecks = tracePairChecks
        let capture = try trace.openCapture()
        peerConfiguration.packetTap = capture?.tap
        if let videoBitrate {
            guard (50...20_000).contains(videoBitrate) else {
                throw ValidationError("--video-bitrate must be 50-20000 kbit/s (got \(videoBitrate))")
            }
            peerConfiguration.videoBitrateKbps = videoBitrate
        }
        guard TestPatternSource.grainRange.contains(videoGrain) else { throw ValidationError("--video-grain must be 0-64 (got \(videoGrain))") }

        let wantsData = data || echoCount != nil
        let media: MediaOptions? = callee != nil || audio || video || wantsData
            ? MediaOptions(audio: audio, video: video, data: wantsData) : nil
        StopRequest.install()
        let timeline = Timeline(json: json)
        timeline.log("tern", "tern peer: \(user) " + (callee.map { "calls \($0)" } ?? "answers") + " via \(signal)"
            + (peerConfiguration.iceServers.isEmpty ? "" : "; ICE servers: \(peerConfiguration.iceServers.map(\.description).joined(separator: ", "))"))
        var session = PeerSession(
            options: .init(signalURLs: signalURLs, user: user,
                           token: try SecretInput.resolve(option: token, file: tokenFile, environment: "TERN_TOKEN") ?? "",
                           callee: callee, media: media, echo: echo,
                           echoCount: echoCount,
                           echoFormat: EchoMessageFormat(size: echoSize, binary: echoBinary, sizes: try parsedEchoSizes(), alternate: echoAlternate),
                           echoInterval: echoIntervalMs.map { .milliseconds($0) },
                           ownChannel: DataChannelInit(ordered: !unordered, maxRetransmits: maxRetransmits),
                           echoLastAtMax: echoMaxMessage, reject: reject.flatMap(RejectReason.init(rawValue:)),
                           answerDelay: answerDelay.map { .milliseconds(Int($0 * 1000)) },
                           cancelAfter: cancelAfter.map { .milliseconds(Int($0 * 1000)) },
                           sendMessage: try parsedItems(sendMessage, flag: "--send-message"),
                           attachedData: try parsedItems(attach, flag: "--attach"),
                           peerConfiguration: peerConfiguration, duration: duration.map { .milliseconds(Int($0 * 1000)) },
                           wait: .milliseconds(Int(wait * 1000)), capture: capture,
                           statsInterval: trace.statsPeriod,
                           requestVideoAfter: requestVideoAfter.map { .milliseconds(Int($0 * 1000)) },
                           restartIceAfter: restartIceAfter.map { .milliseconds(Int($0 * 1000)) },
                           expectedToneHz: expectTone,
                           signalTLS: SignalingClientTLS(trustedRootPaths: signalCA.map { [$0] } ?? []),
                           videoSize: try parsedVideoSize(), videoGrain: videoGrain,
                           pushWait: try pushWait(),
                           firstAnswer: firstAnswer, ringTimeout: ringTimeoutDuration),
            timeline: timeline)
        if group {
            let actions = PeerGroupSession.Actions(inviteMore: Self.users(inviteMore), cancelInvitees: cancelInvite.flatMap { Self.users($0) },
                                                   ringTimeout: ringTimeoutDuration)
            var groupSession = PeerGroupSession(options: session.options, invitees: Self.users(callee),
                                                toneHz: tone ?? (callee != nil ? 440 : 660), actions: actions, timeline: timeline)
            let (summary, text) = await groupSession.run()
            timeline.summary(summary, text: text)
            if !groupSession.steps.allPassed { throw ExitCode(1) }
            return
        }
        let summary = await session.run()
        trace.finish(capture: capture, timeline: timeline) {
            CallReportBuilder.report(summary, title: "tern peer (\(user))", timeline: timeline, samples: session.samples.all)
        }
        timeline.summary(Self.withManageCall(summary.json, events: session.manageEvents,
                                                  attachedData: session.receivedAttachedData), text: summary.text)
        if !summary.steps.allPassed { throw ExitCode(1) }
    }
}

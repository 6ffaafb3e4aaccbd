import TernCore
import TernMedia
import TernRTP
import TernSDP

/// One local stream being sent: RTP sequencing, send statistics and the history that answers NACKs.
struct MediaSender {
    var configuration: SendStreamConfiguration {
        didSet { (headerExtension, transportSequenceOffset) = Self.headerExtension(for: configuration) }
    }
    /// What every packet of the stream carries in its header: the mid (RFC 8843) and, when
    /// negotiated, a transport-wide sequence number left at 0 — it is written into the
    /// serialized packet at `transportSequenceOffset` as the packet leaves the pacer.
    private(set) var headerExtension: RTPHeaderExtension?
    private(set) var transportSequenceOffset: Int?
    var sequenceNumber: UInt16
    var statistics: SendStatistics
    var history: SendHistory
    var lastRTPTimestamp: UInt32 = 0
    var lastSentAt: Instant?
    /// False while negotiation says we do not send on this stream (hold, video removed).
    var isActive = true

    init(configuration: SendStreamConfiguration, initialSequenceNumber: UInt16) {
        self.configuration = configuration
        (headerExtension, transportSequenceOffset) = Self.headerExtension(for: configuration)
        self.sequenceNumber = initialSequenceNumber
        self.statistics = SendStatistics(ssrc: configuration.ssrc, clockRate: UInt32(configuration.clockRate))
        // Audio is not retransmitted (late audio is useless); video keeps ~1 s at 1 Mbit/s.
        self.history = SendHistory(capacity: configuration.kind == .video ? 1024 : 1)
        useRTX(configuration.rtx, initialSequenceNumber: initialSequenceNumber &+ 0x8000)
    }

    /// Resends on `rtx` from now on (nil: resend packets as they were). A renegotiation that
    /// keeps the same RTX stream keeps its sequence numbers.
    mutating func useRTX(_ rtx: RTXStream?, initialSequenceNumber: UInt16) {
        guard let rtx else { history.rtx = nil; return }
        if let current = history.rtx, current.ssrc == rtx.ssrc, current.payloadType == rtx.payloadType { return }
        history.rtx = RTXEncoder(ssrc: rtx.ssrc, payloadType: rtx.payloadType, initialSequenceNumber: initialSequenceNumber)
    }

    /// Writes one payload unit as an RTP packet (RFC 3550 §5.1) with the stream's header extension.
    mutating func makePacket(_ unit: RTPPayloadUnit) -> RTPPacket {
        let packet = RTPPacket(marker: unit.marker, payloadType: configuration.payloadType,
                               sequenceNumber: sequenceNumber, timestamp: unit.timestamp,
                               ssrc: configuration.ssrc, headerExtension: headerExtension, payload: unit.payload[...])
        sequenceNumber &+= 1
        lastRTPTimestamp = unit.timestamp
        return packet
    }

    /// The stream's header extension and where its transport-wide number lands in a packet
    /// without CSRCs (ours never carry any; RTX and padding packets keep the same header).
    private static func headerExtension(for configuration: SendStreamConfiguration) -> (RTPHeaderExtension?, Int?) {
        var elements: [RTPHeaderExtensionElement] = []
        if let id = configuration.midExtensionID {
            elements.append(RTPHeaderExtensionElement(id: id, value: Array(configuration.mid.utf8)))
        }
        if let id = configuration.transportCCExtensionID { elements.append(RTPHeaderExtensionElement(id: id, value: [0, 0])) }
        guard !elements.isEmpty else { return (nil, nil) }
        let headerExtension = RTPHeaderExtension(elements: elements)
        let offset = configuration.transportCCExtensionID.flatMap { id in
            RTPPacket(payloadType: 0, sequenceNumber: 0, timestamp: 0, ssrc: 0, headerExtension: headerExtension)
                .serializedOffset(ofExtensionElement: id)
        }
        return (headerExtension, offset)
    }
}

/// One remote stream being received: statistics, loss repair and frame assembly.
struct MediaReceiver {
    let info: RemoteStreamInfo
    let payloadType: UInt8
    var statistics: ReceiveStatistics
    var nack: NACKGenerator?
    var assembler: FrameAssembler?
    /// Audio: back in sequence order, gaps reported for concealment.
    var audioBuffer: AudioReorderBuffer?
    var depacketizer = VP8Depacketizer()
    var framesAssembled: UInt64 = 0
    var framesDropped: UInt64 = 0
    /// Originals recovered from RTX packets (W3C `retransmittedPacketsReceived`) and their payload bytes.
    var retransmissionsReceived: UInt64 = 0
    var retransmittedBytesReceived: UInt64 = 0
    var keyframeRequestPending = false
    var pliSent: UInt64 = 0
    /// When the last PLI or FIR went out.
    var lastPLI: Instant?
    /// The sender takes FIR (`ccm fir` negotiated).
    let firEnabled: Bool
    var firSent: UInt64 = 0
    /// FIR command sequence number, one more for each new request (RFC 5104 §4.3.1.1).
    var firSequenceNumber: UInt8 = 0
    /// Keyframe requests (PLI or FIR) sent since the last keyframe arrived: after a PLI that
    /// brought none, the next request is a FIR where the sender takes it.
    var requestsSinceKeyframe = 0
    /// After a lost frame, delta frames would decode against a missing reference and show
    /// corrupted pictures: they are dropped until the next keyframe (which a PLI asks for).
    /// A stream also starts here, so a receiver that joins mid-GOP waits for a keyframe.
    var awaitingKeyframe = true
    /// Frames not decoded because they needed a reference that was lost.
    var framesSkippedForKeyframe: UInt64 = 0
    /// Minimum spacing of PLIs for one stream (RFC 4585 §3.5 leaves it to the receiver).
    static let pliInterval: Duration = .milliseconds(200)

    init(info: RemoteStreamInfo, payloadType: UInt8, localSSRC: UInt32, nackEnabled: Bool, firEnabled: Bool = false) {
        self.info = info
        self.firEnabled = firEnabled
        self.payloadType = payloadType
        self.statistics = ReceiveStatistics(ssrc: info.ssrc, clockRate: UInt32(info.clockRate))
        if info.kind == .video {
            // Up to 40 ms of learnt reordering before a first request: a reordering link is not
            // answered with retransmissions of packets that were only late (NACKGenerator).
            if nackEnabled {
                nack = NACKGenerator(senderSSRC: localSSRC, mediaSSRC: info.ssrc,
                                     configuration: .init(maximumReorderingDelay: .milliseconds(40)))
            }
            assembler = FrameAssembler(isFrameStart: MediaReceiver.isVP8FrameStart)
        } else {
            audioBuffer = AudioReorderBuffer()
        }
    }

    /// RFC 7741 §4.2: a frame starts at a packet whose descriptor has S=1 and PID=0.
    @Sendable static func isVP8FrameStart(_ packet: RTPPacket) -> Bool {
        guard let first = packet.payload.first else { return false }
        return first & 0x10 != 0 && first & 0x07 == 0
    }
}

import TernCore
import TernMedia
import TernRTP
import TernSDP

/// One local stream being sent: RTP sequencing, send statistics and the history that answers NACKs.
struct MediaSender {
    var configuration: SendStreamConfiguration
    var sequenceNumber: UInt16
    var statistics: SendStatistics
    var history: SendHistory
    var lastRTPTimestamp: UInt32 = 0
    var lastSentAt: Instant?
    /// False while negotiation says we do not send on this stream (hold, video removed).
    var isActive = true

    init(configuration: SendStreamConfiguration, initialSequenceNumber: UInt16) {
        self.configuration = configuration
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

    /// Writes one payload unit as an RTP packet (RFC 3550 §5.1) with the mid extension (RFC 8843)
    /// and, when negotiated, `transportSequence` in the transport-wide CC extension.
    mutating func makePacket(_ unit: RTPPayloadUnit, transportSequence: UInt16? = nil) -> RTPPacket {
        var packet = RTPPacket(marker: unit.marker, payloadType: configuration.payloadType,
                               sequenceNumber: sequenceNumber, timestamp: unit.timestamp,
                               ssrc: configuration.ssrc, payload: unit.payload[...])
        var elements: [RTPHeaderExtensionElement] = []
        if let id = configuration.midExtensionID {
            elements.append(RTPHeaderExtensionElement(id: id, value: Array(configuration.mid.utf8)))
        }
        if let id = configuration.transportCCExtensionID, let transportSequence {
            elements.append(RTPHeaderExtensionElement(id: id, value: [UInt8(transportSequence >> 8), UInt8(transportSequence & 0xFF)]))
        }
        if !elements.isEmpty { packet.headerExtension = RTPHeaderExtension(elements: elements) }
        sequenceNumber &+= 1
        lastRTPTimestamp = unit.timestamp
        return packet
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

import Foundation
import Synchronization
import TernCore
public import TernDTLS
public import TernICE
import TernRTP
import TernSCTP
public import TernSDP

/// Two peers' media and data over one bundled ICE + DTLS transport: the W3C `RTCPeerConnection`
/// in Swift. It composes the layers the ORTC way — `ICETransport` → `DTLSEndpoint` → SRTP
/// sessions and the SCTP association — with `JSEPSession` deciding what they carry.
///
/// Concurrency: every method may be called from any thread or task. Negotiation state lives
/// behind one lock; the transport below ICE lives in a `TransportDriver` behind its own lock;
/// libnice runs on its own GLib thread. Events arrive in order on `events` (single consumer).
public final class PeerConnection: Sendable {
    /// Everything the connection reports (W3C events), in order.
    public let events: AsyncStream<PeerConnectionEvent>
    /// The configuration it was created with.
    public let configuration: PeerConfiguration
    /// Our DTLS certificate (W3C `getConfiguration().certificates[0]`).
    public let certificate: DTLSCertificate

    /// Everything behind the connection's one lock: the sans-I/O core, and the objects that
    /// perform its actions (the ICE agent, the transport) or that the application holds.
    struct State {
        var core: PeerCore
        var ice: ICETransport?
        var driver: TransportDriver?
        var iceEventsTask: Task<Void, Never>?
        /// Datagrams ICE delivered before the transport existed (a DTLS ClientHello that beat the answer).
        var earlyDatagrams: [[UInt8]] = []
        var channels: [UInt16: DataChannel] = [:]
        var unattachedChannels: [DataChannel] = []
        var senders: [RTPSender] = []
        var remoteTracks: [UInt32: RemoteTrack] = [:]
        var dataChannelsOpened = 0
        var dataChannelsClosed = 0
    }

    let state: Mutex<State>
    let continuation: AsyncStream<PeerConnectionEvent>.Continuation
    /// W3C operations run one after the other (`OperationChain`).
    let operations = OperationChain()
    let clock: any MonotonicClock = SystemClock()
    let createdAt: Instant
    /// The INIT our SCTP association uses, offered in the description (SNAP); nil when
    /// `negotiatesSNAP` is off.
    let sctpInit: InitChunk?

    /// Creates a connection; generates an ECDSA P-256 certificate unless one is configured.
    public init(configuration: PeerConfiguration = PeerConfiguration()) throws(PeerConnectionError) {
        self.configuration = configuration
        if let certificate = configuration.certificate {
            self.certificate = certificate
        } else {
            do throws(DTLSError) { self.certificate = try DTLSCertificate.generate() } catch { throw .dtls(error) }
        }
        let fingerprint = certificate.fingerprint(.sha256)
        sctpInit = configuration.negotiatesSNAP ? SCTPAssociation.makeInit(config: configuration.sctp) : nil
        let jsepConfiguration = JSEPConfiguration(
            fingerprints: [Fingerprint(algorithm: fingerprint.algorithm.rawValue, bytes: fingerprint.digest)],
            maxMessageSize: UInt64(configuration.maxMessageSize),
            // We read any DTLS record whole, so a Tern peer may send us packets that large.
            sctpMaxPacket: configuration.offersTernExtensions ? DTLSEndpoint.maximumRecordPlaintext : nil,
            sctpInit: sctpInit?.serializedChunk)
        var seed = SystemRandomNumberGenerator()
        let jsep = JSEPSession(configuration: jsepConfiguration, random: SeededRandom(seed: seed.next()))
        state = Mutex(State(core: PeerCore(jsep: jsep)))
        (events, continuation) = AsyncStream.makeStream(of: PeerConnectionEvent.self, bufferingPolicy: .unbounded)
        createdAt = SystemClock().now()
        Self.prepareLibrariesOnce
        if configuration.iceCandidatePoolSize > 0 {
            do throws(PeerConnectionError) { try advance { $0.startCandidatePool() } } catch {
                close()
                throw error
            }
        }
    }

    /// libsrtp's process-wide initialisation, started by the first connection on a background
    /// thread so it has finished before that connection's DTLS handshake needs it.
    private static let prepareLibrariesOnce: Void = {
        DispatchQueue.global(qos: .userInitiated).async { SRTPSession.prepareLibrary() }
    }()

    deinit {
        close()
    }

    // MARK: State (W3C attributes)

    public var signalingState: SignalingState { state.withLock { $0.core.jsep.signalingState } }
    public var iceConnectionState: ICETransportState { state.withLock { $0.core.iceState } }
    public var iceGatheringState: ICEGatheringState { state.withLock { $0.core.gatheringState } }
    public var connectionState: PeerConnectionState { state.withLock { $0.core.connectionState } }
    /// What the DTLS handshake negotiated, once connected.
    public var dtlsConnectionInfo: DTLSConnectionInfo? { state.withLock { $0.core.dtlsInfo } }
    /// The candidate pair ICE selected, once connected.
    public var selectedCandidatePair: ICECandidatePair? { state.withLock { $0.core.selectedPair } }
    /// The ICE trace (candidates, checks, state changes), for the debug tool.
    public var iceTrace: ICETrace? { state.withLock { $0.ice?.trace } }

    func jsepTransceiver(at index: Int) -> Transceiver? {
        state.withLock { state in state.core.jsep.transceivers.indices.contains(index) ? state.core.jsep.transceivers[index] : nil }
    }

    func emit(_ event: PeerConnectionEvent) {
        continuation.yield(event)
    }

    // MARK: Close

    /// Closes everything: DTLS close_notify, ICE agent, timers, GLib thread. Idempotent; callable
    /// from any thread. No callback runs after it returns.
    public func close() {
        let closing = state.withLock { state -> (ICETransport?, TransportDriver?, Task<Void, Never>?, [DataChannel], [RemoteTrack], [RTPSender])? in
            guard state.core.close() else { return nil }
            defer {
                state.channels = [:]
                state.unattachedChannels = []
                state.ice = nil
                state.driver = nil
                state.iceEventsTask = nil
                state.remoteTracks = [:]
            }
            return (state.ice, state.driver, state.iceEventsTask, Array(state.channels.values) + state.unattachedChannels,
                    Array(state.remoteTracks.values), state.senders)
        }
        guard let (ice, driver, task, channels, tracks, senders) = closing else { return }
        ice?.setReceiveHandler(nil)
        driver?.close()
        ice?.close()
        task?.cancel()
        for channel in channels { channel.didClose(reason: "peer connection closed") }
        for track in tracks { track.finish() }
        for sender in senders { sender.attach(nil) }
        if ice != nil || driver != nil || !channels.isEmpty {
            continuation.yield(.connectionStateChanged(.closed))
        }
        continuation.finish()
    }
}

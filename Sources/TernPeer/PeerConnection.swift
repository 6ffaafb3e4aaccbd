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
/// Concurrency: every method may be called from any thread or task. The decisions are
/// `PeerCore`'s, behind one lock; the objects it works on are in `PeerObjects`; the transport
/// below ICE lives in a `TransportDriver` behind its own lock; libnice runs on its own GLib
/// thread. Events arrive in order on `events` (single consumer).
public final class PeerConnection: Sendable {
    /// Everything the connection reports (W3C events), in order.
    public let events: AsyncStream<PeerConnectionEvent>
    /// The configuration it was created with.
    public let configuration: PeerConfiguration
    /// Our DTLS certificate (W3C `getConfiguration().certificates[0]`).
    public let certificate: DTLSCertificate

    /// The sans-I/O core (negotiation, candidate flow, W3C states) behind the connection's lock;
    /// changed only through `advance`, read through `read`.
    let core: Mutex<PeerCore>
    /// The agent, the transport and the application's objects the core's actions work on.
    let objects = PeerObjects()
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
        var jsepConfiguration = JSEPConfiguration(
            fingerprints: [Fingerprint(algorithm: fingerprint.algorithm.rawValue, bytes: fingerprint.digest)],
            maxMessageSize: UInt64(configuration.maxMessageSize),
            // We read any DTLS record whole, so a Tern peer may send us packets that large.
            sctpMaxPacket: configuration.offersTernExtensions ? DTLSEndpoint.maximumRecordPlaintext : nil,
            sctpInit: sctpInit?.serializedChunk)
        if configuration.negotiatesDTLSInChecks && ICETransport.libniceCarriesDTLSInChecks {
            jsepConfiguration.iceOptions.append(JSEPConfiguration.dtlsInChecksOption)
        }
        var seed = SystemRandomNumberGenerator()
        let jsep = JSEPSession(configuration: jsepConfiguration, random: SeededRandom(seed: seed.next()))
        core = Mutex(PeerCore(jsep: jsep))
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

    public var signalingState: SignalingState { read { $0.jsep.signalingState } }
    public var iceConnectionState: ICETransportState { read(\.iceState) }
    public var iceGatheringState: ICEGatheringState { read(\.gatheringState) }
    public var connectionState: PeerConnectionState { read(\.connectionState) }
    /// What the DTLS handshake negotiated, once connected.
    public var dtlsConnectionInfo: DTLSConnectionInfo? { read(\.dtlsInfo) }
    /// The candidate pair ICE selected, once connected.
    public var selectedCandidatePair: ICECandidatePair? { read(\.selectedPair) }
    /// The ICE trace (candidates, checks, state changes), for the debug tool.
    public var iceTrace: ICETrace? { objects.ice?.trace }

    func jsepTransceiver(at index: Int) -> Transceiver? {
        read { core in core.jsep.transceivers.indices.contains(index) ? core.jsep.transceivers[index] : nil }
    }

    /// Reads the core under the lock.
    func read<Value>(_ body: (PeerCore) -> Value) -> Value {
        core.withLock { body($0) }
    }

    func emit(_ event: PeerConnectionEvent) {
        continuation.yield(event)
    }

    // MARK: Close

    /// Closes everything: DTLS close_notify, ICE agent, timers, GLib thread. Idempotent; callable
    /// from any thread. No callback runs after it returns.
    public func close() {
        let coreClosed = (try? advance { core in (core.close(), []) }) ?? false
        guard coreClosed, let closing = objects.close() else { return }
        closing.ice?.setReceiveHandler(nil)
        closing.driver?.close()
        closing.ice?.close()
        closing.iceEventsTask?.cancel()
        for channel in closing.channels { channel.didClose(reason: "peer connection closed") }
        for track in closing.remoteTracks { track.finish() }
        for sender in closing.senders { sender.attach(nil) }
        if closing.ice != nil || closing.driver != nil || !closing.channels.isEmpty {
            continuation.yield(.connectionStateChanged(.closed))
        }
        continuation.finish()
    }
}

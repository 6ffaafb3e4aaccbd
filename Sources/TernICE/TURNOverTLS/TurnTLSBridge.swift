import Foundation
import Synchronization

/// A local TLS bridge for one `turns:` server (Docs/ICE.md, "TURN over TLS").
///
/// libnice 0.1.21 reaches `turns:` servers over plain TCP, so Tern gives libnice this bridge as
/// a TURN/TCP server instead: a TCP listener on the loopback address (127.0.0.1, or ::1 for an
/// IPv6 server) with an ephemeral port. For each connection libnice opens, the bridge opens a
/// TCP connection to the real server and runs a verified OpenSSL TLS client over it
/// (`TurnTLSConnection`), relaying bytes both ways. The listener and every connection live on
/// the transport's loop thread — so in the same network namespace as libnice's sockets — and
/// are driven by GLib sources on its context: no extra thread, nothing blocks the loop.
///
/// `@unchecked Sendable`: everything but `reporter` is created and used on the loop thread only
/// (or after the loop exited); `reporter` is behind its Mutex. Owned by the `NiceAgentHandle`,
/// which stops listening when the transport tears down and closes the rest once libnice's agent
/// is finalised (its TCP connections are gone by then).
final class TurnTLSBridge: @unchecked Sendable {
    /// What a connection reports to the transport (on the loop thread).
    enum Event: Sendable {
        case established(version: String, cipher: String)
        case failed(reason: String)
    }

    /// The server as configured (host name as written, for SNI and the certificate check).
    let server: ICEServer
    /// Where libnice connects: the loopback address and the bridge's port.
    let listenAddress: String
    let port: UInt16
    /// Whether the server's certificate is verified (`TurnTLSOptions.insecureSkipVerify` off).
    var verifies: Bool { context.verify }

    private let serverAddress: String
    private let loop: GLibEventLoop
    private let context: TurnTLSContext
    private var listener: Int32
    private var watch: GLibFDWatch?
    private var connections: [ObjectIdentifier: TurnTLSConnection] = [:]
    private var closed = false
    private let reporter = Mutex<(@Sendable (ICEServer, Event) -> Void)?>(nil)

    /// Starts a bridge for `server` (as configured), whose numeric address is `address`, on
    /// `loop`'s thread (the listener is created there, in the loop thread's network namespace).
    static func start(server: ICEServer, address: String, options: TurnTLSOptions,
                      loop: GLibEventLoop) throws(ICEError) -> TurnTLSBridge {
        let context = try TurnTLSContext(serverName: server.host, options: options)
        let ipv6 = address.contains(":")
        let made = loop.sync { () -> TurnTLSBridge? in
            guard let (fd, port) = BridgeSocket.listenOnLoopback(ipv6: ipv6) else { return nil }
            let bridge = TurnTLSBridge(server: server, address: address, listenAddress: ipv6 ? "::1" : "127.0.0.1",
                                       listener: fd, port: port, context: context, loop: loop)
            bridge.listen()
            return bridge
        }
        guard let made else { throw .closed }
        guard let bridge = made else {
            throw .rejected(operation: "TLS bridge for \(server)", reason: "cannot listen on the loopback address")
        }
        return bridge
    }

    private init(server: ICEServer, address: String, listenAddress: String, listener: Int32, port: UInt16,
                 context: TurnTLSContext, loop: GLibEventLoop) {
        self.server = server
        self.serverAddress = address
        self.listenAddress = listenAddress
        self.listener = listener
        self.port = port
        self.context = context
        self.loop = loop
    }

    /// Where events go (the transport, weakly). Any thread.
    func setReporter(_ body: @escaping @Sendable (ICEServer, Event) -> Void) {
        reporter.withLock { $0 = body }
    }

    private func listen() {
        watch = GLibFDWatch(loop: loop) { [weak self] in self?.acceptAll() }
        watch?.watch(listener, .readable)
    }

    private func acceptAll() {
        while !closed, listener >= 0, let local = BridgeSocket.accept(listener) {
            let (remote, code) = BridgeSocket.connect(host: serverAddress, port: server.port)
            let address = "\(serverAddress):\(server.port)"
            let connection = TurnTLSConnection(local: local, remote: remote, serverAddress: address,
                                               context: context, bridge: self)
            connections[ObjectIdentifier(connection)] = connection
            // A connect that fails at once still gets a connection object: it reports the failure
            // and holds libnice's side open (see `TurnTLSConnection`, "refused").
            connection.start(on: loop, failure: remote >= 0 ? nil
                                 : "cannot connect to \(address): \(BridgeSocket.describe(code))")
        }
    }

    func connectionEstablished(version: String, cipher: String) {
        report(.established(version: version, cipher: cipher))
    }

    func connectionFailed(_ reason: String) {
        report(.failed(reason: reason))
    }

    func remove(_ connection: TurnTLSConnection) {
        connections.removeValue(forKey: ObjectIdentifier(connection))
    }

    private func report(_ event: Event) {
        let body = reporter.withLock { $0 }
        body?(server, event)
    }

    /// Stops accepting connections (loop thread). Open connections go on until libnice closes
    /// them, so TURN deallocations sent while the stream is removed still reach the server.
    func stopListening() {
        watch?.destroy()
        watch = nil
        if listener >= 0 { Foundation.close(listener) }
        listener = -1
    }

    /// Stops listening and closes every connection (loop thread, or after the loop exited).
    func close() {
        guard !closed else { return }
        closed = true
        stopListening()
        for connection in Array(connections.values) { connection.close() }
        connections.removeAll()
        reporter.withLock { $0 = nil }
    }

    deinit {
        // Normally closed already (agent finalised); otherwise close where the sources run.
        if !closed, loop.sync({ close() }) == nil { close() }
    }
}

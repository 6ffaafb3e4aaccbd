internal import COpenSSL
import Foundation

/// One connection through the `turns:` bridge: libnice's plain TCP connection (`local`) on one
/// side, a TLS client session to the real TURN server (`remote`) on the other.
///
/// Everything runs on the loop thread from one `GLibFDWatch`: each time either socket is ready,
/// `pump` moves as many bytes as it can in both directions without blocking, then sets what to
/// watch next. OpenSSL never touches a socket: it reads ciphertext from a memory BIO we fill
/// from `remote` and writes ciphertext to a memory BIO we drain to `remote` (so partial writes,
/// EAGAIN and SIGPIPE stay in our hands). Buffers are bounded (`limit`); a full buffer stops
/// reading from the side that fills it.
///
/// A failure (connect, handshake, verification) is reported once, the server side is closed,
/// and libnice's connection is kept open but ignored (`refused`) until libnice closes it.
/// Closing it at once would be worse: libnice 0.1.21 then drops the TURN discovery with the
/// socket without ever re-checking whether gathering is done, so "candidate-gathering-done"
/// would never come. Kept open, libnice's Allocate request times out after its
/// `stun-reliable-timeout` and gathering completes without a relay candidate from this server.
///
/// Confined to the loop thread (created and closed there, or after the loop exited).
final class TurnTLSConnection {
    enum Phase { case connecting, handshaking, open, refused, closed }

    /// The most a direction buffers before it stops reading (TURN messages are small).
    static let limit = 256 * 1024

    /// The sockets; -1 once closed (closed exactly once: a second `close` could hit an fd
    /// number libnice has reused meanwhile).
    private var local: Int32
    private var remote: Int32
    private let context: TurnTLSContext
    private let serverAddress: String
    private weak var bridge: TurnTLSBridge?
    private var watch: GLibFDWatch?
    private var ssl: OpaquePointer?
    private var input: OpaquePointer?
    private var output: OpaquePointer?
    private(set) var phase = Phase.connecting
    /// Plaintext from libnice not yet given to `SSL_write`.
    private var toServer: [UInt8] = []
    /// Plaintext from the server not yet sent to libnice.
    private var toLocal: [UInt8] = []
    /// Ciphertext from `output` not yet sent to the server.
    private var cipherOut: [UInt8] = []
    private var localEOF = false
    private var remoteEOF = false
    private var scratch = [UInt8](repeating: 0, count: 16 * 1024)

    init(local: Int32, remote: Int32, serverAddress: String, context: TurnTLSContext, bridge: TurnTLSBridge) {
        self.local = local
        self.remote = remote
        self.serverAddress = serverAddress
        self.context = context
        self.bridge = bridge
    }

    /// How long the TCP connect plus TLS handshake to the server may take.
    static let handshakeTimeout: Duration = .seconds(10)

    /// Starts watching both sockets on `loop` (call on the loop thread). `failure`: the
    /// connection to the server could not even be started (`remote` is -1).
    func start(on loop: GLibEventLoop, failure: String? = nil) {
        watch = GLibFDWatch(loop: loop) { [weak self] in self?.pump() }
        if let failure { return fail(failure) }
        updateWatches()
        loop.post(after: Self.handshakeTimeout) { [weak self] in
            guard let self, phase == .connecting || phase == .handshaking else { return }
            fail("no TLS session with \(serverAddress) within \(Self.handshakeTimeout)")
        }
    }

    deinit { release() }

    /// Stops everything and frees the session and both sockets (libnice sees its TCP connection close).
    func close() {
        guard phase != .closed else { return }
        phase = .closed
        release()
        bridge?.remove(self)
    }

    private func release() {
        watch?.destroy()
        watch = nil
        if let ssl { SSL_free(ssl) } // frees `input` and `output` too
        ssl = nil
        input = nil
        output = nil
        if local >= 0 { Foundation.close(local) }
        if remote >= 0 { Foundation.close(remote) }
        local = -1
        remote = -1
    }

    private func fail(_ reason: String) {
        guard phase != .closed, phase != .refused else { return }
        bridge?.connectionFailed(reason)
        guard local >= 0, !localEOF else { return close() }
        phase = .refused
        // Best effort: let the server see OpenSSL's alert (e.g. bad_certificate) before we close.
        drainOutput()
        if remote >= 0, !cipherOut.isEmpty {
            var ignored: Int32 = 0
            _ = BridgeSocket.send(remote, cipherOut, failure: &ignored)
        }
        if let ssl { SSL_free(ssl) }
        ssl = nil
        input = nil
        output = nil
        if remote >= 0 {
            watch?.watch(remote, [])
            Foundation.close(remote)
        }
        remote = -1
        toServer.removeAll()
        toLocal.removeAll()
        cipherOut.removeAll()
        watch?.watch(local, .readable)
    }

    /// After a failure: read and drop what libnice sends until it closes its connection.
    private func drainRefused() {
        var failure: Int32 = 0
        while let n = BridgeSocket.receive(local, into: &scratch, failure: &failure) {
            guard n > 0 else { return close() }
        }
    }

    // MARK: The pump

    private func pump() {
        guard phase != .closed else { return }
        if phase == .refused { return drainRefused() }
        if phase == .connecting {
            guard let ready = watch?.ready(remote), !ready.isDisjoint(with: [.writable, .error, .hangUp]) else {
                drainLocalWhileConnecting()
                return
            }
            let code = BridgeSocket.pendingError(remote)
            guard code == 0 else { return fail("cannot connect to \(serverAddress): \(BridgeSocket.describe(code))") }
            guard startTLS() else { return fail("cannot start a TLS session: \(TurnTLSContext.openSSLError())") }
        }
        var progress = true
        while progress, phase != .closed {
            progress = false
            progress = readLocal() || progress
            progress = readRemote() || progress
            if phase == .handshaking { handshake() }
            if phase == .open {
                progress = writeTLS() || progress
                progress = readTLS() || progress
            }
            guard phase != .closed, phase != .refused else { return }
            drainOutput()
            progress = sendRemote() || progress
            progress = sendLocal() || progress
        }
        guard phase != .closed, phase != .refused else { return }
        // libnice closed its side: done once what it sent has reached the server.
        if localEOF, phase != .open || (toServer.isEmpty && cipherOut.isEmpty) { return close() }
        // The server closed (TCP end or TLS close_notify): done once libnice has what it sent.
        if remoteEOF, toLocal.isEmpty { return close() }
        updateWatches()
    }

    private func drainLocalWhileConnecting() {
        _ = readLocal()
        if localEOF { return close() }
        updateWatches()
    }

    private func startTLS() -> Bool {
        guard let input = BIO_new(BIO_s_mem()), let output = BIO_new(BIO_s_mem()) else { return false }
        _ = tern_BIO_set_mem_eof_return(input, -1) // empty means "wait for more", not end of stream
        guard let ssl = context.makeSession(input: input, output: output) else {
            BIO_free(input)
            BIO_free(output)
            return false
        }
        self.ssl = ssl
        self.input = input
        self.output = output
        phase = .handshaking
        return true
    }

    /// libnice → `toServer`.
    private func readLocal() -> Bool {
        guard !localEOF, toServer.count < Self.limit else { return false }
        var failure: Int32 = 0
        guard let n = BridgeSocket.receive(local, into: &scratch, failure: &failure) else { return false }
        guard n > 0 else { localEOF = true; return false }
        toServer.append(contentsOf: scratch[0..<n])
        return true
    }

    /// Server → `input` BIO (ciphertext).
    private func readRemote() -> Bool {
        guard let input, !remoteEOF, tern_BIO_pending(input) < Self.limit else { return false }
        var failure: Int32 = 0
        guard let n = BridgeSocket.receive(remote, into: &scratch, failure: &failure) else { return false }
        guard n > 0 else {
            remoteEOF = true
            if phase == .handshaking {
                let why = failure == 0 ? "the server closed the connection" : BridgeSocket.describe(failure)
                fail("TLS handshake with \(serverAddress) failed: \(why)")
            }
            return false
        }
        _ = scratch.withUnsafeBytes { BIO_write(input, $0.baseAddress, Int32(n)) }
        return true
    }

    private func handshake() {
        guard let ssl else { return }
        ERR_clear_error()
        let result = SSL_do_handshake(ssl)
        if result == 1 {
            phase = .open
            let version = SSL_get_version(ssl).map { String(cString: $0) } ?? "?"
            let cipher = SSL_CIPHER_get_name(SSL_get_current_cipher(ssl)).map { String(cString: $0) } ?? "?"
            bridge?.connectionEstablished(version: version, cipher: cipher)
            return
        }
        let error = SSL_get_error(ssl, result)
        guard error != SSL_ERROR_WANT_READ, error != SSL_ERROR_WANT_WRITE else { return }
        let verdict = SSL_get_verify_result(ssl)
        if context.verify, verdict != Int(X509_V_OK) {
            let text = X509_verify_cert_error_string(verdict).map { String(cString: $0) } ?? "unknown"
            fail("certificate verification failed: \(text) (X509_V_ERR \(verdict))")
        } else {
            fail("TLS handshake failed: \(TurnTLSContext.openSSLError())")
        }
    }

    /// `toServer` → TLS records, while the ciphertext backlog is small.
    private func writeTLS() -> Bool {
        guard let ssl, let output, !toServer.isEmpty,
              cipherOut.count + tern_BIO_pending(output) < Self.limit else { return false }
        ERR_clear_error()
        let count = Int32(min(toServer.count, 16 * 1024))
        let n = toServer.withUnsafeBytes { SSL_write(ssl, $0.baseAddress, count) }
        if n > 0 {
            toServer.removeFirst(Int(n))
            return true
        }
        let error = SSL_get_error(ssl, n)
        if error != SSL_ERROR_WANT_READ, error != SSL_ERROR_WANT_WRITE {
            fail("TLS write failed: \(TurnTLSContext.openSSLError())")
        }
        return false
    }

    /// TLS records → `toLocal`.
    private func readTLS() -> Bool {
        guard let ssl, toLocal.count < Self.limit else { return false }
        ERR_clear_error()
        let n = scratch.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32($0.count)) }
        if n > 0 {
            toLocal.append(contentsOf: scratch[0..<Int(n)])
            return true
        }
        switch SSL_get_error(ssl, n) {
        case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE: break
        case SSL_ERROR_ZERO_RETURN: remoteEOF = true // close_notify
        default: fail("TLS read failed: \(TurnTLSContext.openSSLError())")
        }
        return false
    }

    /// `output` BIO → `cipherOut`.
    private func drainOutput() {
        guard let output else { return }
        while tern_BIO_pending(output) > 0 {
            let n = scratch.withUnsafeMutableBytes { BIO_read(output, $0.baseAddress, Int32($0.count)) }
            guard n > 0 else { break }
            cipherOut.append(contentsOf: scratch[0..<Int(n)])
        }
    }

    private func sendRemote() -> Bool {
        guard phase != .connecting, !cipherOut.isEmpty else { return false }
        var failure: Int32 = 0
        guard let n = BridgeSocket.send(remote, cipherOut, failure: &failure) else { return false }
        guard n >= 0 else {
            if phase == .handshaking {
                fail("TLS handshake with \(serverAddress) failed: \(BridgeSocket.describe(failure))")
            } else {
                remoteEOF = true
                cipherOut.removeAll()
            }
            return false
        }
        cipherOut.removeFirst(n)
        return n > 0
    }

    private func sendLocal() -> Bool {
        guard !toLocal.isEmpty else { return false }
        var failure: Int32 = 0
        guard let n = BridgeSocket.send(local, toLocal, failure: &failure) else { return false }
        guard n >= 0 else {
            localEOF = true // libnice closed its socket
            toLocal.removeAll()
            return false
        }
        toLocal.removeFirst(n)
        return n > 0
    }

    private func updateWatches() {
        guard let watch else { return }
        var localWanted: IOCondition = []
        if !localEOF, toServer.count < Self.limit { localWanted.insert(.readable) }
        if !toLocal.isEmpty { localWanted.insert(.writable) }
        watch.watch(local, localWanted)
        var remoteWanted: IOCondition = []
        if phase == .connecting {
            remoteWanted = .writable
        } else {
            if !remoteEOF, let input, tern_BIO_pending(input) < Self.limit { remoteWanted.insert(.readable) }
            if !cipherOut.isEmpty { remoteWanted.insert(.writable) }
        }
        watch.watch(remote, remoteWanted)
    }
}

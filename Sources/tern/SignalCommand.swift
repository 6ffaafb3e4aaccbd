import ArgumentParser
import TernSignalingServer
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `tern signal`: runs the reference signaling server (protocol v1, Docs/SIGNALING.md).
struct SignalCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signal",
        abstract: "Run the reference signaling server (WebSocket, protocol v1; see Docs/SIGNALING.md).")

    @Option(help: "Port to listen on (0 = any free port).")
    var port: Int = 8787

    @Option(help: "Interface to listen on.")
    var host: String = "127.0.0.1"

    @Option(help: "HMAC secret: register needs token = lowercase hex HMAC-SHA256(secret, user). Without it, any token is accepted (development only).")
    var secret: String?

    @Option(help: ArgumentHelp("Read the HMAC secret from the first line of this file (or set TERN_SIGNAL_SECRET): a --secret on the command line is visible to every local user.", valueName: "file"))
    var secretFile: String?

    @Flag(help: "Announce the server as JSON lines ({\"event\":\"listening\",\"url\":…}) for scripts.")
    var json = false

    @Option(help: ArgumentHelp("Serve wss:// (TLS 1.2+) with this PEM certificate chain (needs --tls-key).", valueName: "file"))
    var tlsCert: String?

    @Option(help: ArgumentHelp("The PEM private key of --tls-cert.", valueName: "file"))
    var tlsKey: String?

    func validate() throws {
        guard (tlsCert == nil) == (tlsKey == nil) else {
            throw ValidationError("--tls-cert and --tls-key go together")
        }
    }

    func run() async throws {
        let secret = try SecretInput.resolve(option: self.secret, file: secretFile, environment: "TERN_SIGNAL_SECRET")
        if secret == nil {
            print(json ? JSONValue.object(["event": .string("warning"), "message": .string("no --secret: open development mode, any register token is accepted")]).serialized
                : "warning: no --secret: open development mode, any register token is accepted")
        }
        let json = self.json
        let tls = tlsCert.flatMap { cert in tlsKey.map { SignalingServerTLS(certificateChainPath: cert, privateKeyPath: $0) } }
        let server = SignalingServer(host: host, port: port, secret: secret, tls: tls)
        let host = self.host
        try await server.run { bound in
            let url = "\(tls == nil ? "ws" : "wss")://\(host):\(bound)/v1"
            print(json ? JSONValue.object(["event": .string("listening"), "url": .string(url), "port": .int(bound)]).serialized
                : "tern signal: listening on \(url) (Ctrl-C to stop)")
            fflush(nil)  // scripts read the URL from a pipe: do not leave it in the buffer
        }
    }
}

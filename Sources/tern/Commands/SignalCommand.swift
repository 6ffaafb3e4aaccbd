import ArgumentParser
import Foundation
import TernSignaling
import TernCore
import TernSignalingPostgres
import TernSignalingServer
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `tern signal`: the reference signaling server (protocol v1, Docs/SIGNALING.md) and its tokens.
struct SignalCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signal",
        abstract: "Run the reference signaling server (WebSocket, protocol v1; see Docs/SIGNALING.md), or mint a token for it.",
        subcommands: [SignalServeCommand.self, SignalTokenCommand.self],
        defaultSubcommand: SignalServeCommand.self)
}

/// `tern signal [serve]`: runs the server.
struct SignalServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the reference signaling server (the default of tern signal).")

    @Option(help: "Port to listen on (0 = any free port).")
    var port: Int = 8787

    @Option(help: "Interface to listen on.")
    var host: String = "127.0.0.1"

    @Option(help: "Token secret (at least 32 bytes): register needs a JWT signed with it (HS256; tern signal token mints one). Without it, any token is accepted (development only).")
    var secret: String?

    @Option(help: ArgumentHelp("Read the token secret from the first line of this file (or set TERN_SIGNAL_SECRET): a --secret on the command line is visible to every local user.", valueName: "file"))
    var secretFile: String?

    @Flag(help: "Announce the server as JSON lines ({\"event\":\"listening\",\"url\":…}) for scripts.")
    var json = false

    @Option(help: ArgumentHelp("Serve wss:// (TLS 1.2+) with this PEM certificate chain (needs --tls-key).", valueName: "file"))
    var tlsCert: String?

    @Option(help: ArgumentHelp("The PEM private key of --tls-cert.", valueName: "file"))
    var tlsKey: String?

    @Option(name: .customLong("allow-origin"),
            help: ArgumentHelp("Accept WebSocket upgrades from browser pages of this origin only (repeat for several, e.g. https://app.example.com); requests without Origin (not from a browser) are always accepted.", valueName: "origin"))
    var allowedOrigins: [String] = []

    @Option(help: ArgumentHelp("Run as one of several nodes sharing their state on this PostgreSQL (or set TERN_SIGNAL_POSTGRES): postgres://user:password@host:port/database[?sslmode=require]. The schema is created and migrated by the server. Without it, one node keeps its state in memory.", valueName: "url"))
    var postgres: String?

    @Option(help: ArgumentHelp("POST invitations for invitees with no live connection to this URL (JSON, signed: X-Tern-Signature: sha256=<hex HMAC-SHA256 of the body>); the invitation then rings until its timeout and a device that registers meanwhile gets it. The application's backend turns the POST into an APNs/FCM push.", valueName: "url"))
    var pushWebhook: String?

    @Option(help: ArgumentHelp("Sign pushes with the first line of this file (or set TERN_PUSH_SECRET); by default with the token secret.", valueName: "file"))
    var pushSecretFile: String?

    @Flag(help: "Push every invitation, also to invitees with a live connection (with --push-webhook).")
    var pushAlways = false

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
        let tokens = if let secret { try await SignalingTokens(secret: secret) } else { SignalingTokens?.none }
        if tls == nil, !["127.0.0.1", "::1", "localhost"].contains(host) {
            let text = "plain ws:// on \(host): anyone on the path reads tokens and can rewrite a=fingerprint; serve wss:// (--tls-cert, --tls-key) beyond a test network"
            print(json ? JSONValue.object(["event": .string("warning"), "message": .string(text)]).serialized : "warning: \(text)")
        }
        var log: SignalingPostgresLog?
        if let url = postgres ?? ProcessInfo.processInfo.environment["TERN_SIGNAL_POSTGRES"] {
            log = try await SignalingPostgresLog.connect(url: url, logger: TernLog.logger("signaling"))
            if let node = log?.node {
                print(json ? JSONValue.object(["event": .string("node"), "node": .int(Int(node))]).serialized
                    : "tern signal: node \(node) of the nodes on PostgreSQL")
            }
        }
        var webhook: SignalingPushWebhook?
        if let pushWebhook {
            guard let pushSecret = try SecretInput.resolve(option: nil, file: pushSecretFile, environment: "TERN_PUSH_SECRET")
                ?? secret
            else {
                throw ValidationError("--push-webhook signs with a secret: give --push-secret-file (or TERN_PUSH_SECRET) or the token secret")
            }
            webhook = try SignalingPushWebhook(url: pushWebhook, secret: pushSecret, policy: pushAlways ? .always : .whenOffline)
        }
        let server = SignalingServer(host: host, port: port, tokens: tokens, tls: tls,
                                     allowedOrigins: allowedOrigins.isEmpty ? nil : Set(allowedOrigins), postgres: log,
                                     pushWebhook: webhook)
        let host = self.host
        try await server.run { bound in
            let url = "\(tls == nil ? "ws" : "wss")://\(host):\(bound)/v1"
            print(json ? JSONValue.object(["event": .string("listening"), "url": .string(url), "port": .int(bound)]).serialized
                : "tern signal: listening on \(url) (Ctrl-C to stop)")
            fflush(nil)  // scripts read the URL from a pipe: do not leave it in the buffer
        }
    }
}

/// `tern signal token`: prints a registration token (JWT) for tests and scripts; a real
/// deployment mints them in its backend with any JWT library and the same secret.
struct SignalTokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Print a registration token (JWT, HS256) for the server's secret.")

    @Option(help: ArgumentHelp("The secret, from the first line of this file (or set TERN_SIGNAL_SECRET).", valueName: "file"))
    var secretFile: String?

    @Option(help: "The secret on the command line (tests only: visible to every local user).")
    var secret: String?

    @Option(help: "The user id the token proves (the sub claim).")
    var user: String

    @Option(help: "user, or agent (may pick queue requests).")
    var role: String = "user"

    @Option(help: ArgumentHelp("How long it is valid: seconds, or with s, m, h or d (1h, 30m, 7d).", valueName: "duration"))
    var ttl: String = "1h"

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Valid only from this many seconds from now (the nbf claim; negative for the past).", valueName: "seconds"))
    var notBefore: Int?

    func run() async throws {
        guard let secret = try SecretInput.resolve(option: secret, file: secretFile, environment: "TERN_SIGNAL_SECRET") else {
            throw ValidationError("give the server's secret: --secret-file FILE or TERN_SIGNAL_SECRET")
        }
        guard let role = SignalingRole(rawValue: role) else { throw ValidationError("--role is user or agent") }
        guard let lifetime = Self.duration(ttl) else { throw ValidationError("--ttl: a number of seconds, or 30m, 1h, 7d") }
        let tokens = try await SignalingTokens(secret: secret)
        let start = notBefore.map { Date().addingTimeInterval(TimeInterval($0)) }
        print(try await tokens.mint(user: user, role: role, lifetime: lifetime, notBefore: start))
    }

    /// `90`, `90s`, `30m`, `1h`, `7d`; negative values give tokens that are already expired (tests).
    static func duration(_ text: String) -> Duration? {
        let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        if let last = text.last, let unit = units[last], let value = Int64(text.dropLast()) {
            let (seconds, overflow) = value.multipliedReportingOverflow(by: unit)
            return overflow ? nil : .seconds(seconds)
        }
        return Int64(text).map { .seconds($0) }
    }
}

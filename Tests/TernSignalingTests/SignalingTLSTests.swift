import Foundation
import Testing
import TernSignaling
import TernSignalingClient
import TernSignalingServer

/// `wss://` end to end: `SignalingServer` with a certificate from a throwaway test CA, real
/// clients that verify it. Needs the openssl CLI (for the test CA).
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl"), "needs the openssl CLI"))
struct SignalingTLSTests {
    /// A CA, and a server certificate it signed (for `localhost` and 127.0.0.1 by default), in a new directory.
    final class TestCertificates {
        let directory: String
        var ca: String { directory + "/ca.pem" }
        var chain: String { directory + "/cert.pem" }
        var key: String { directory + "/key.pem" }

        init(subjectAltName: String = "DNS:localhost,IP:127.0.0.1") throws {
            directory = NSTemporaryDirectory() + "tern-signal-tls-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try "subjectAltName=\(subjectAltName)\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n"
                .write(toFile: directory + "/server.ext", atomically: true, encoding: .utf8)
            let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
            try Self.openssl(["req", "-x509"] + ec + ["-keyout", directory + "/ca.key", "-out", ca, "-days", "1",
                             "-subj", "/CN=Tern Signal Test CA", "-addext", "basicConstraints=critical,CA:TRUE",
                             "-addext", "keyUsage=critical,keyCertSign"])
            try Self.openssl(["req"] + ec + ["-keyout", key, "-out", directory + "/server.csr", "-subj", "/CN=localhost"])
            try Self.openssl(["x509", "-req", "-in", directory + "/server.csr", "-CA", ca, "-CAkey", directory + "/ca.key",
                              "-CAcreateserial", "-out", chain, "-days", "1", "-extfile", directory + "/server.ext"])
        }

        deinit { try? FileManager.default.removeItem(atPath: directory) }

        private static func openssl(_ arguments: [String]) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            process.arguments = arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
        }
    }

    @Test("a client trusting the test CA registers over wss:// and calls through it", arguments: ["localhost", "127.0.0.1"])
    func registerAndRelayOverTLS(host: String) async throws {
        let certificates = try TestCertificates()
        let server = SignalingServer(host: "127.0.0.1", port: 0, tokens: try await SignalingTokens(secret: testSecret),
                                     tls: SignalingServerTLS(certificateChainPath: certificates.chain, privateKeyPath: certificates.key))
        let port = try await server.start()
        let url = "wss://\(host):\(port)/v1"
        let trust = SignalingClientTLS(trustedRootPaths: [certificates.ca])
        let alice = try await SignalingClient.connect(url: url, tls: trust)
        let bob = try await SignalingClient.connect(url: url, tls: trust)
        let tokens = try await SignalingTokens(secret: testSecret)
        try await alice.register(user: "alice", token: try await tokens.mint(user: "alice", lifetime: .seconds(60)))
        try await bob.register(user: "bob", token: try await tokens.mint(user: "bob", lifetime: .seconds(60)))
        #expect(await next(alice) == .registered(user: "alice"))
        #expect(await next(bob) == .registered(user: "bob"))
        try await alice.send(.invite(Invite(callId: "t1", to: "bob")))
        guard case .invite(let invite) = await next(bob) else { Issue.record("no invite over TLS"); return }
        #expect(invite.from == "alice")
        await alice.close()
        await bob.close()
        await server.shutdown()
    }

    @Test("a client that does not trust the server's CA, or names another host, does not connect; plain ws:// to it fails")
    func untrustedRefused() async throws {
        let certificates = try TestCertificates()
        let server = SignalingServer(host: "127.0.0.1", port: 0,
                                     tls: SignalingServerTLS(certificateChainPath: certificates.chain, privateKeyPath: certificates.key))
        let port = try await server.start()
        func reason(_ url: String, _ tls: SignalingClientTLS) async -> String? {
            do {
                let client = try await SignalingClient.connect(url: url, tls: tls)
                await client.close()
                return nil
            } catch {
                return "\(error)"
            }
        }
        let system = await reason("wss://127.0.0.1:\(port)/v1", .system)
        #expect(system?.contains("TLS") == true, "system roots do not vouch for the test CA: \(String(describing: system))")
        // A trusted certificate for another name: one issued for localhost only, reached as 127.0.0.1.
        let localhostOnly = try TestCertificates(subjectAltName: "DNS:localhost")
        let other = SignalingServer(host: "127.0.0.1", port: 0,
                                    tls: SignalingServerTLS(certificateChainPath: localhostOnly.chain, privateKeyPath: localhostOnly.key))
        let otherPort = try await other.start()
        let otherName = await reason("wss://127.0.0.1:\(otherPort)/v1", SignalingClientTLS(trustedRootPaths: [localhostOnly.ca]))
        #expect(otherName?.contains("TLS failed") == true, "a name the certificate does not carry is refused: \(String(describing: otherName))")
        #expect(await reason("wss://localhost:\(otherPort)/v1", SignalingClientTLS(trustedRootPaths: [localhostOnly.ca])) == nil)
        await other.shutdown()
        let plain = await reason("ws://127.0.0.1:\(port)/v1", .system)
        #expect(plain != nil, "no WebSocket without TLS on a TLS port")
        let missing = await reason("wss://127.0.0.1:\(port)/v1", SignalingClientTLS(trustedRootPaths: ["/nonexistent/ca.pem"]))
        #expect(missing?.contains("/nonexistent/ca.pem") == true)
        await server.shutdown()
    }
}

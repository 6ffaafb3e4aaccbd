import Testing
@testable import TernSignalingClient

@Suite("WebSocketURL: what the client connects to and sends in the opening handshake (RFC 6455 §3, §4.1)")
struct WebSocketURLTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let url: String
        let host: String
        let port: Int
        let requestTarget: String
        let hostHeader: String
        var testDescription: String { url }
    }

    @Test("host, port, request target and Host header", arguments: [
        Case(url: "ws://127.0.0.1:8787/v1", host: "127.0.0.1", port: 8787, requestTarget: "/v1", hostHeader: "127.0.0.1:8787"),
        Case(url: "ws://example.com", host: "example.com", port: 80, requestTarget: "/", hostHeader: "example.com"),
        Case(url: "ws://example.com:80/v1", host: "example.com", port: 80, requestTarget: "/v1", hostHeader: "example.com"),
        Case(url: "WS://Signal.Example:9000?room=1", host: "Signal.Example", port: 9000, requestTarget: "/?room=1",
             hostHeader: "Signal.Example:9000"),
        Case(url: "ws://[::1]:9000/v1?x=1#fragment", host: "::1", port: 9000, requestTarget: "/v1?x=1", hostHeader: "[::1]:9000"),
        Case(url: "ws://[fe80::1]/v1", host: "fe80::1", port: 80, requestTarget: "/v1", hostHeader: "[fe80::1]"),
        Case(url: "wss://signal.example/v1", host: "signal.example", port: 443, requestTarget: "/v1", hostHeader: "signal.example"),
        Case(url: "WSS://signal.example:8443/v1", host: "signal.example", port: 8443, requestTarget: "/v1",
             hostHeader: "signal.example:8443"),
    ])
    func parses(c: Case) throws {
        let url = try WebSocketURL(parsing: c.url)
        #expect(url.host == c.host)
        #expect(url.port == c.port)
        #expect(url.requestTarget == c.requestTarget)
        #expect(url.hostHeader == c.hostHeader)
    }

    @Test("refused URLs get the matching typed error")
    func refused() {
        #expect(throws: WebSocketURLError.unsupportedScheme(url: "https://a/v1")) { try WebSocketURL(parsing: "https://a/v1") }
        for bad in ["ws://", "ws://user@host/v1", "ws://host:/v1", "ws://host:x/v1", "ws://[::1]x/v1", "ws://host:65536"] {
            #expect(throws: WebSocketURLError.self, "\(bad)") { try WebSocketURL(parsing: bad) }
        }
    }
}
